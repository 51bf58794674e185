// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/input_errors.hpp"

#include <cstring>

namespace counterguard {
namespace {

std::string listed(const std::vector<input_error>& errors, std::size_t total) {
  std::string text;
  for (const input_error& error : errors)
    text += (text.empty() ? "" : "\n") + std::string(error.what());
  if (total > errors.size()) {
    const std::size_t more = total - errors.size();
    text += "\nand " + std::to_string(more) + " more error" + (more == 1 ? "" : "s") + " (" +
            std::to_string(total) + " in all)";
  }
  return text;
}

}  // namespace

input_error_list::input_error_list(std::vector<input_error> errors, std::size_t total)
    : input_error(errors.front().where(), errors.front().field(), errors.front().problem(),
                  errors.front().valid()),
      m_errors(std::move(errors)),
      m_total(total),
      m_text(listed(m_errors, m_total)) {}

void input_error_collector::add(const input_error& error) {
  // One bad suite default read for each case that uses it is one problem, reported once.
  for (const input_error& kept : m_errors) {
    if (std::strcmp(kept.what(), error.what()) == 0)
      return;
  }
  ++m_total;
  if (m_errors.size() < cap)
    m_errors.push_back(error);
}

void input_error_collector::add(const input_error_list& errors) {
  for (const input_error& error : errors.errors())
    add(error);
  m_total += errors.total() - errors.errors().size();  // those it counted but did not keep
}

void input_error_collector::throw_if_any() const {
  if (m_total == 0)
    return;
  if (m_total == 1)
    throw m_errors.front();
  throw input_error_list(m_errors, m_total);
}

}  // namespace counterguard
