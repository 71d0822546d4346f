// Lets a process or worker thread run the TypeScript sources directly (node -r ./test/support/ts-register.js
// src/main.ts), transpiling each file on require: the crash tests kill -9 a real server process, and the projection
// thread runs from the sources under jest, without a build step. Output is cached by file content, so the many
// short-lived processes and threads of a test run transpile each file once.
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const ts = require('typescript');

const compilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  esModuleInterop: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  isolatedModules: true,
};
const cacheDir = path.join(os.tmpdir(), `chronicle-ts-cache-${ts.version}`);
fs.mkdirSync(cacheDir, { recursive: true });

require.extensions['.ts'] = (module, filename) => {
  const source = fs.readFileSync(filename, 'utf8');
  const key = crypto.createHash('sha1').update(filename).update('\0').update(source).digest('hex');
  const cached = path.join(cacheDir, `${key}.js`);
  let output;
  try {
    output = fs.readFileSync(cached, 'utf8');
  } catch {
    output = ts.transpileModule(source, { compilerOptions, fileName: filename }).outputText;
    const temp = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    fs.writeFileSync(temp, output);
    fs.renameSync(temp, cached);
  }
  module._compile(output, filename);
};
