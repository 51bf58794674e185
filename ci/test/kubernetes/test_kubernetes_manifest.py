#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The Kubernetes gate (ci/kubernetes/gate-indexed-job.yaml): every object valid against the Kubernetes API schema
(npm kubernetes-models, installed by tools/install_ci_linters.sh), and the fan-out consistent: an Indexed Job
of N completions whose index I runs shard I+1 of N on one GPU, a merge expecting N shards, one shared volume.
No cluster is started here: no packaged Kubernetes runs on this machine.

  test_kubernetes_manifest.py [--linters build/ci-linters/node_modules] [unittest options]
Exit status 77 (ctest: skipped) when kubernetes-models is not installed.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
MANIFEST = os.path.join(SOURCE, "ci", "kubernetes", "gate-indexed-job.yaml")
MODULES = os.path.join(SOURCE, "build", "ci-linters", "node_modules")


def documents(path=MANIFEST):
    with open(path, encoding="utf-8") as f:
        return list(yaml.safe_load_all(f))


def validate(objects):
    """Runs validate_manifests.mjs on the objects; returns (exit status, output)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump([{"file": os.path.basename(MANIFEST), "document": i + 1, "object": o} for i, o in enumerate(objects)],
                  f)
    try:
        done = subprocess.run(["node", os.path.join(HERE, "validate_manifests.mjs"), MODULES, f.name],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    finally:
        os.unlink(f.name)
    return done.returncode, done.stdout


def job(name):
    return next(d for d in documents() if d["kind"] == "Job" and d["metadata"]["name"] == name)


def script(job_document):
    return job_document["spec"]["template"]["spec"]["containers"][0]["args"][0]


class kubernetes_gate(unittest.TestCase):
    def test_every_object_is_valid_against_the_kubernetes_schema(self):
        status, output = validate(documents())
        self.assertEqual(status, 0, output)
        self.assertEqual(output.count(": valid"), 3, output)

    def test_the_schema_check_refuses_a_job_that_kubernetes_would_refuse(self):
        shards = job("counterguard-gate-shards")
        shards["spec"]["completionMode"] = "indexed"
        status, output = validate([shards])
        self.assertEqual(status, 1, output)
        self.assertIn("completionMode", output)

    def test_index_i_runs_shard_i_plus_1_of_the_count_the_merge_expects(self):
        shards = job("counterguard-gate-shards")
        spec = shards["spec"]
        self.assertEqual(spec["completionMode"], "Indexed")
        count = spec["completions"]
        self.assertEqual(spec["parallelism"], count)
        text = script(shards)
        self.assertIn("shard=$((JOB_COMPLETION_INDEX + 1))", text)
        self.assertIn(f'--shard "$shard/{count}"', text)
        self.assertIn('--json "/results/shard-$shard.json"', text)
        merge = script(job("counterguard-gate-merge"))
        self.assertRegex(merge, rf"(?s)--expect-shards {count} .*/results/shard-\*\.json")
        limits = spec["template"]["spec"]["containers"][0]["resources"]["limits"]
        self.assertEqual(limits["nvidia.com/gpu"], 1)

    def test_the_shards_and_the_merge_share_one_read_write_many_volume(self):
        claim = next(d for d in documents() if d["kind"] == "PersistentVolumeClaim")
        self.assertEqual(claim["spec"]["accessModes"], ["ReadWriteMany"])
        for name in ("counterguard-gate-shards", "counterguard-gate-merge"):
            volumes = job(name)["spec"]["template"]["spec"]["volumes"]
            self.assertEqual(volumes[0]["persistentVolumeClaim"]["claimName"], claim["metadata"]["name"], name)

    def test_the_usage_in_the_header_applies_what_the_labels_select(self):
        header = open(MANIFEST, encoding="utf-8").read()
        for part in set(re.findall(r"--selector=counterguard/part=(\w+)", header)):
            self.assertTrue(any(d["metadata"]["labels"]["counterguard/part"] == part for d in documents()), part)


def main():
    global MODULES
    parser = argparse.ArgumentParser()
    parser.add_argument("--linters", default=MODULES)
    arguments, rest = parser.parse_known_args()
    MODULES = os.path.abspath(arguments.linters)
    if not os.path.isfile(os.path.join(MODULES, "kubernetes-models", "package.json")):
        print(f"test_kubernetes_manifest: skipped: kubernetes-models is not in {MODULES} "
              "(tools/install_ci_linters.sh installs it)")
        return 77
    program = unittest.main(argv=[sys.argv[0], *rest], exit=False, verbosity=2)
    return 0 if program.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
