# SPDX-License-Identifier: Apache-2.0
"""The error every part of the template runner raises for what it does not support."""


class TemplateError(Exception):
    """The template uses something this runner does not support, or names an unknown input."""
