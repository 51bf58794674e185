// Prints GitLab's CI configuration JSON schema (ci.json, draft-07) as gitlab-ci-local bundles it: the npm
// package compiles the schema into its dist/index.js as an object literal, which this reads and evaluates.
//   node gitlab_ci_schema.cjs NODE_MODULES_DIR > ci.json
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const bundle = fs.readFileSync(path.join(process.argv[2], "gitlab-ci-local", "dist", "index.js"), "utf8");
const anchor = '{$schema:"http://json-schema.org/draft-07/schema#",$id:"https://gitlab.com/.gitlab-ci.yml"';
const start = bundle.indexOf(anchor);
if (start < 0) {
  console.error("gitlab_ci_schema: GitLab's schema is not in this gitlab-ci-local bundle");
  process.exit(2);
}
// The literal's end: the brace that closes the first one, outside strings.
let depth = 0;
let end = -1;
for (let i = start, inString = false; i < bundle.length && end < 0; ++i) {
  const c = bundle[i];
  if (inString) {
    if (c === "\\") ++i;
    else if (c === '"') inString = false;
  } else if (c === '"') inString = true;
  else if (c === "{") ++depth;
  else if (c === "}" && --depth === 0) end = i + 1;
}
const schema = vm.runInNewContext("(" + bundle.slice(start, end) + ")", {}, {timeout: 5000});
if (!schema.definitions || !schema.definitions.job_template) {
  console.error("gitlab_ci_schema: the object found is not GitLab's CI schema");
  process.exit(2);
}
process.stdout.write(JSON.stringify(schema));
