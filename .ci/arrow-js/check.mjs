// Reads every table listed in summary.json (written by gosummary from what
// Go's package datasets read) with apache-arrow, a second, independent Arrow
// implementation, and checks row counts, column names and types, schema
// metadata, and every value. Exits 1 on the first table that differs.
import { readFileSync } from 'node:fs';
import { tableFromIPC } from 'apache-arrow';

const types = {
  device: 'Utf8', backend: 'Utf8', kernel: 'Utf8', class: 'Utf8', role: 'Utf8', variant: 'Utf8',
  consts: 'Map<{key:Utf8, value:Int64}>', params: 'Map<{key:Utf8, value:Int64}>',
  local_size: 'List<Int64>', global_size: 'List<Int64>', time_s: 'Float64', raw_times_s: 'List<Float64>',
  runs_kept: 'Int32', runs_discarded: 'Int32', timestamp: 'Timestamp<MICROSECOND, UTC>', uniperf_version: 'Utf8',
};

// canon turns an Arrow JS value into plain JSON-comparable data: BigInt
// becomes a decimal string, maps become sorted objects, vectors arrays.
function canon(v) {
  if (typeof v === 'bigint') return v.toString();
  if (v === null || typeof v !== 'object') return v;
  if (v.constructor?.name === 'MapRow') {
    const out = {};
    for (const [k, x] of [...v].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out[k] = canon(x);
    return out;
  }
  if (typeof v.toArray === 'function') return Array.from(v.toArray(), canon);
  return v;
}

function sortKeys(o) {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function checkTable(want) {
  const problems = [];
  const t = tableFromIPC(readFileSync(want.path));
  if (t.numRows !== want.rows) problems.push(`rows: apache-arrow reads ${t.numRows}, Go ${want.rows}`);
  const names = t.schema.fields.map((f) => f.name);
  if (JSON.stringify(names) !== JSON.stringify(want.columns)) problems.push(`columns: ${names} vs ${want.columns}`);
  for (const f of t.schema.fields) {
    if (types[f.name] !== String(f.type)) problems.push(`column ${f.name}: type ${f.type}, want ${types[f.name]}`);
  }
  const meta = Object.fromEntries(t.schema.metadata);
  for (const [k, v] of Object.entries(want.metadata)) {
    if (meta[k] !== v) problems.push(`metadata ${k}: ${JSON.stringify(meta[k])} vs ${JSON.stringify(v)}`);
  }
  for (let i = 0; i < Math.min(t.numRows, want.rows) && problems.length < 10; i++) {
    const row = want.data[i];
    for (const name of want.columns) {
      let got = canon(t.getChild(name).get(i));
      let exp = name === 'timestamp' ? row.timestamp_us : row[name];
      if (name === 'timestamp') got = String(Math.round(got * 1000)); // JS gives milliseconds
      if (name === 'consts' || name === 'params') exp = sortKeys(exp);
      if (JSON.stringify(got) !== JSON.stringify(exp)) {
        problems.push(`row ${i}, column ${name}: apache-arrow reads ${JSON.stringify(got)}, Go ${JSON.stringify(exp)}`);
      }
    }
  }
  return problems;
}

const summary = JSON.parse(readFileSync(process.argv[2], 'utf8'));
let failed = false;
for (const table of summary.tables) {
  const problems = checkTable(table);
  if (problems.length > 0) {
    failed = true;
    console.error(`${table.path}:\n  ${problems.join('\n  ')}`);
  } else {
    console.log(`ok  ${table.path}: ${table.rows} rows, ${table.columns.length} columns agree`);
  }
}
process.exit(failed ? 1 : 0);
