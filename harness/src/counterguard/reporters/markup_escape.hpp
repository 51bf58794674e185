// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

namespace counterguard {

enum class markup_language { xml, html };

// Text as it may stand in an element or attribute of an XML (JUnit) or HTML report: &, <, >, " and ' as
// entities (&apos; in XML, &#39; in HTML). In XML also tab and line breaks as character references, which
// attribute-value normalisation would otherwise turn into spaces, and '?' for the control characters XML
// forbids.
[[nodiscard]] std::string escape_markup(std::string_view text, markup_language language);

}  // namespace counterguard
