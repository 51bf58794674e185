# SPDX-License-Identifier: Apache-2.0
"""The metric catalog of the C++ side: aliases, classes, directions and where each value comes from."""

from . import _library


class MetricInfo:
    """One metric as the catalog resolves it (docs/metrics.md)."""

    def __init__(self, entry):
        self.name = entry["name"]
        self.cls = entry["class"]  # "static", "exact" or "noisy"
        self.direction = entry["direction"]  # "lower_is_better", "higher_is_better" or "exact"
        self.source = entry["source"]  # "cupti", "compiler" or "launch"
        self.unit = entry["unit"]
        self.description = entry["description"]
        self.summable = entry["summable"]
        self.raw_inputs = list(entry["raw_inputs"])

    def __repr__(self):
        return f"MetricInfo({self.name!r}, cls={self.cls!r}, source={self.source!r})"


def metrics():
    """Every alias of the catalog, by name."""
    return [MetricInfo(entry) for entry in _library.call_for_json("counterguard_metric_catalog")]


def resolve_metric(name):
    """An alias or raw CUPTI name as the catalog resolves it; InputError (with the closest aliases) for a name
    that is neither."""
    return MetricInfo(_library.call_for_json("counterguard_resolve_metric", name.encode("utf-8")))
