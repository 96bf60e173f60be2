#!/usr/bin/env node
// Compiles one Kaitai Struct grammar (any .ksy) with the real compiler (JavaScript
// target), parses every file named on the command line with it, and prints one JSON
// object per file on its own line:
//
//   {"file": ..., "ok": true, "leftover": 0, "tree": {...}}
//
// The tree holds every attribute of every `seq`, guided by the grammar: an object per user
// type (keyed by attribute id, in `seq` order, absent attributes left out), an array per
// repeated attribute, numbers, strings, and byte arrays as lower-case hex. Computed
// instances (`value:`) are left out; instances read from the stream (positioned fields,
// `pos:`) are in, and a grammar whose root names a field with `-mmd-gaps` gets the runs of
// bytes after the seq that no instance read, as hex, under that name. The grammar is compiled in debug mode, which
// records where each attribute was read: Kaitai's JavaScript runtime reads a 64-bit
// integer into a double (exact only up to 2^53), so a `u8`/`s8` attribute is read again
// from its bytes as a BigInt and printed with every digit. Nothing here knows a format: mmd-spec's
// `ksy::expected_tree` builds the same tree from a value read by mmd-formats, with the
// same conventions as the renderer, and the tests compare the two.
//
// Usage: node tree.js GRAMMAR.ksy FILE...
// Exit codes: 0 every file parsed to its end; 1 some file failed; 2 usage or compile error.
'use strict';

const fs = require('fs');
const yaml = require('js-yaml');
const compiler = require('kaitai-struct-compiler');
const KaitaiStream = require('kaitai-struct/KaitaiStream');

function usage(msg, code = 2) {
  (code ? process.stderr : process.stdout).write(`${msg}\nusage: node tree.js GRAMMAR.ksy FILE...\n`);
  process.exit(code);
}

async function compile(ksy) {
  const out = await compiler.compile('javascript', ksy, null, true);
  const exportsObj = {};
  for (const src of Object.values(out)) {
    new Function('exports', 'require', src)(exportsObj, require);
  }
  const cls = Object.values(exportsObj).find((v) => typeof v === 'function');
  if (!cls) throw new Error('no parser class compiled');
  return cls;
}

// snake_case id -> the property name of the generated JavaScript (lowerCamelCase).
const camel = (id) => id.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
// A type id -> the class name the compiler gives it (UpperCamelCase of its words).
const className = (id) =>
  id.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');

// A number as JSON: a number, or a string for what JSON cannot hold (and for -0).
function num(x) {
  if (typeof x === 'bigint') return Number(x);
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (Object.is(x, -0)) return '-0';
  return x;
}

const hex = (b) => Buffer.from(b).toString('hex');

function typeName(t) {
  return typeof t === 'string' ? t.replace(/\(.*$/, '') : null;
}

// A 64-bit integer type (`u8`, `s8le`, ...): its signedness and endianness, else null.
function wideInt(type, endian) {
  const m = typeof type === 'string' && /^([us])8(le|be)?$/.exec(type);
  return m ? { signed: m[1] === 's', little: (m[2] || endian) !== 'be' } : null;
}

// A BigInt as the digits JSON will hold, through a marker `render` replaces.
const BIG = '@@bigint@@';
const render = (obj) => JSON.stringify(obj).replace(/"@@bigint@@(-?[0-9]+)"/g, '$1');

// The 64-bit integer read at `dbg` (an attribute's debug record), from the file's bytes.
function bigAt(view, dbg, wide) {
  const at = dbg.ioOffset + dbg.start;
  const b = wide.signed ? view.getBigInt64(at, wide.little) : view.getBigUint64(at, wide.little);
  return BIG + b.toString();
}

function value(v, attr, types, ctx, dbg) {
  const wide = wideInt(attr.type, ctx.endian);
  if (wide && dbg) return bigAt(ctx.view, dbg, wide);
  if (v instanceof Uint8Array) return hex(v);
  if (typeof v === 'number' || typeof v === 'bigint') return num(v);
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (v && typeof v === 'object') {
    // A user type: named by the attribute, or (behind a switch) by the object's class.
    let id = typeName(attr.type);
    if (!id || !types[id]) {
      id = Object.keys(types).find((t) => className(t) === v.constructor.name);
    }
    const def = types[id];
    if (!def) throw new Error(`no type of class ${v.constructor.name} in the grammar`);
    return record(v, def, types, ctx);
  }
  throw new Error(`unexpected value ${String(v)} for ${attr.id}`);
}

function record(obj, def, types, ctx) {
  const out = {};
  const dbg = obj._debug || {};
  for (const attr of def.seq || []) {
    const v = obj[camel(attr.id)];
    if (v === undefined || v === null) continue;
    const d = dbg[camel(attr.id)] || dbg[attr.id];
    out[attr.id] = attr.repeat
      ? v.map((x, i) => value(x, attr, types, ctx, d && d.arr ? d.arr[i] : undefined))
      : value(v, attr, types, ctx, d);
  }
  // Instances read from the stream (not computed with `value:`): positioned fields. Each
  // one with `pos:` notes the bytes it read, for the gaps.
  for (const [id, inst] of Object.entries(def.instances || {})) {
    if ('value' in inst) continue;
    const v = obj[camel(id)];
    if (v === undefined || v === null) continue;
    const d = dbg['_m_' + camel(id)];
    if ('pos' in inst && d && d.end !== undefined) {
      ctx.read.push([d.ioOffset + d.start, d.ioOffset + d.end]);
    }
    const attr = Object.assign({ id }, inst);
    out[id] = inst.repeat ? v.map((x) => value(x, attr, types, ctx)) : value(v, attr, types, ctx);
  }
  return out;
}

// The runs of bytes from `from` to `end` that no range in `read` holds, as hex.
function gaps(bytes, from, end, read) {
  const runs = [];
  let c = from;
  for (const [a, b] of read.slice().sort((x, y) => x[0] - y[0] || x[1] - y[1])) {
    if (a > c) runs.push(hex(bytes.subarray(c, a)));
    c = Math.max(c, b);
  }
  if (end > c) runs.push(hex(bytes.subarray(c, end)));
  return runs;
}

async function main() {
  const [grammar, ...files] = process.argv.slice(2);
  if (!grammar || grammar === '--help' || grammar === '-h') usage('Parses files with one .ksy and prints their trees.', grammar ? 0 : 2);
  let cls;
  let ksy;
  try {
    ksy = yaml.load(fs.readFileSync(grammar, 'utf8'));
    cls = await compile(ksy);
  } catch (e) {
    process.stderr.write(`cannot compile ${grammar}: ${e && e.stack ? e.stack : JSON.stringify(e)}\n`);
    process.exit(2);
  }
  const types = Object.assign({}, ksy.types || {});
  let failed = 0;
  for (const file of files) {
    const out = { file, ok: false };
    try {
      const buf = fs.readFileSync(file);
      const io = new KaitaiStream(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));
      const parsed = new cls(io);
      parsed._read(); // debug mode: the constructor does not read
      const seqEnd = io.pos;
      out.leftover = io.size - io.pos;
      const ctx = {
        endian: (ksy.meta && ksy.meta.endian) || 'le',
        view: new DataView(buf.buffer, buf.byteOffset, buf.length),
        read: [],
      };
      out.tree = record(parsed, ksy, types, ctx);
      // A grammar with positioned instances names (`-mmd-gaps`) the field that keeps the
      // bytes after the seq that no instance read: they are the rest of the file.
      if (ksy['-mmd-gaps']) {
        out.tree[ksy['-mmd-gaps']] = gaps(new Uint8Array(buf.buffer, buf.byteOffset, buf.length), seqEnd, io.size, ctx.read);
        out.leftover = 0;
      }
      out.ok = out.leftover === 0;
      if (!out.ok) out.error = `parse stopped ${out.leftover} byte(s) before the end of the file`;
    } catch (e) {
      out.error = e && e.message ? `${e.constructor.name}: ${e.message}` : String(e);
    }
    if (!out.ok) failed += 1;
    process.stdout.write(`${render(out)}\n`);
  }
  // Not process.exit(): it would cut a long output to a pipe short.
  process.exitCode = failed ? 1 : 0;
}

main();
