// SPDX-License-Identifier: Apache-2.0
// Validates Kubernetes objects against the Kubernetes API's OpenAPI schema as npm kubernetes-models compiles it
// (types, enums, required fields, formats; like the API server, the schema allows fields it does not name).
//   node validate_manifests.mjs NODE_MODULES_DIR OBJECTS.json     (a JSON array of {file, document, object})
// Prints one line per object; exit status 0 when all are valid, 1 otherwise.
import fs from "fs";
import path from "path";
import { pathToFileURL } from "url";

const [modules, objectsFile] = process.argv.slice(2);
const objects = JSON.parse(fs.readFileSync(objectsFile, "utf8"));
let problems = 0;
for (const { file, document, object } of objects) {
  const where = `${file} document ${document} (${object.kind} ${object.metadata?.name ?? "?"})`;
  // apiVersion "batch/v1" is the module kubernetes-models/batch/v1, "v1" is kubernetes-models/v1.
  const module = path.join(modules, "kubernetes-models", object.apiVersion, "index.js");
  if (!fs.existsSync(module)) {
    console.log(`${where}: apiVersion '${object.apiVersion}' is not a Kubernetes API group/version`);
    ++problems;
    continue;
  }
  const model = (await import(pathToFileURL(module).href))[object.kind];
  if (!model) {
    console.log(`${where}: no kind '${object.kind}' in ${object.apiVersion}`);
    ++problems;
    continue;
  }
  try {
    new model(object).validate();
    console.log(`${where}: valid`);
  } catch (error) {
    console.log(`${where}: ${error.message}`);
    ++problems;
  }
}
process.exit(problems ? 1 : 0);
