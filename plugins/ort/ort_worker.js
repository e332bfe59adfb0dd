// Tessera's ONNX Runtime worker: the measured:ort plugin runs it with Node.js and talks to it over
// stdin/stdout, one JSON request per line and one JSON reply per line. ONNX Runtime comes from
// npm's onnxruntime-node (its CPU runtime); Debian packages no ONNX Runtime to link against.
//
//   node ort_worker.js MODULES_DIR            serve requests (what the plugin does)
//   node ort_worker.js MODULES_DIR compare ORIG.onnx OPT.onnx [ROUNDS]
//                                             interleaved timing of two model files, JSON on stdout
//
// Sessions use every graph optimisation and ORT_THREADS intra-op threads (default 1), sequential
// execution, the CPU execution provider. Timings are milliseconds of session.run by the wall clock,
// or with ORT_CLOCK=cpu by the process's CPU time (user + system): with one intra-op thread that is
// the run's own work, which other processes on a loaded machine barely disturb.
'use strict';

const fs = require('fs');
const readline = require('readline');

const modulesDir = process.argv[2];
if (!modulesDir) {
  process.stderr.write('usage: node ort_worker.js MODULES_DIR [compare ORIG.onnx OPT.onnx [ROUNDS]]\n');
  process.exit(2);
}

let ort, ortVersion;
try {
  const entry = require.resolve('onnxruntime-node', { paths: [modulesDir] });
  ort = require(entry);
  ortVersion = require(require.resolve('onnxruntime-node/package.json', { paths: [modulesDir] })).version;
} catch (e) {
  process.stderr.write(`onnxruntime-node cannot be loaded from ${modulesDir}: ${e.message}\n`);
  process.exit(3);
}

const threads = Math.max(1, parseInt(process.env.ORT_THREADS || '1', 10) || 1);
const clock = process.env.ORT_CLOCK === 'cpu' ? 'cpu' : 'wall';
const sessionOptions = {
  executionProviders: ['cpu'],
  graphOptimizationLevel: 'all',
  executionMode: 'sequential',
  intraOpNumThreads: threads,
  interOpNumThreads: 1,
};

const typedArrays = {
  float32: Float32Array, float64: Float64Array, int32: Int32Array, int64: BigInt64Array,
  int8: Int8Array, uint8: Uint8Array, bool: Uint8Array,
};

// A loaded model: its session and dummy feeds (arange(n)/n for float inputs, zeros otherwise,
// as Tessera's dummyInputs), so that timing feeds what the plugin's executor would.
const sessions = new Map();
let profiles = 0;

function dummyFeeds(session) {
  const feeds = {};
  session.inputNames.forEach((name, i) => {
    const meta = session.inputMetadata[i];
    if (!meta.isTensor) throw new Error(`input '${name}' is not a tensor`);
    const dims = meta.shape.map((d) => {
      if (typeof d !== 'number') throw new Error(`input '${name}' has a symbolic dimension '${d}'`);
      return d;
    });
    const n = dims.reduce((a, b) => a * b, 1);
    const Array = typedArrays[meta.type];
    if (!Array) throw new Error(`input '${name}' has type ${meta.type}, which the worker cannot feed`);
    const data = new Array(n);
    if (meta.type === 'float32' || meta.type === 'float64') for (let k = 0; k < n; ++k) data[k] = k / n;
    feeds[name] = new ort.Tensor(meta.type, data, dims);
  });
  return feeds;
}

async function load(path) {
  let entry = sessions.get(path);
  if (entry) return entry;
  if (!fs.existsSync(path)) throw new Error(`${path}: no such file`);
  let session;
  try {
    session = await ort.InferenceSession.create(path, sessionOptions);
  } catch (e) {
    throw new Error(`${path}: ONNX Runtime cannot load the model: ${e.message}`);
  }
  entry = { session, feeds: null };
  sessions.set(path, entry);
  return entry;
}

async function timeRuns(entry, count, times) {
  if (!entry.feeds) entry.feeds = dummyFeeds(entry.session);
  for (let i = 0; i < count; ++i) {
    const start = process.hrtime.bigint(), startCpu = process.cpuUsage();
    await entry.session.run(entry.feeds);
    const cpu = process.cpuUsage(startCpu);
    const ms = clock === 'cpu' ? (cpu.user + cpu.system) / 1e3 : Number(process.hrtime.bigint() - start) / 1e6;
    if (times) times.push(ms);
  }
}

function describe(session, names, metadata) {
  return names.map((name, i) => ({ name, type: metadata[i].type, dims: metadata[i].shape }));
}

async function handle(request) {
  switch (request.cmd) {
    case 'info':
      return { version: ortVersion, threads, clock, node: process.version };
    case 'load': {
      const { session } = await load(request.model);
      return {
        inputs: describe(session, session.inputNames, session.inputMetadata),
        outputs: describe(session, session.outputNames, session.outputMetadata),
      };
    }
    case 'unload': {
      const entry = sessions.get(request.model);
      sessions.delete(request.model);
      if (entry) await entry.session.release();
      return {};
    }
    case 'time': {
      const entry = await load(request.model);
      await timeRuns(entry, request.warmup | 0, null);
      const ms = [];
      await timeRuns(entry, Math.max(1, request.runs | 0), ms);
      return { ms };
    }
    case 'profile': {
      // ORT's own per-node kernel times, summed per run: what the model's nodes cost inside ORT,
      // without the call from Node.js into ORT that wall-clock timing of session.run includes.
      // `reorder_ms` is the part of each run spent in the NCHWc layout reorders ORT inserts at the
      // borders of its blocked-layout chains (ReorderInput, ReorderOutput).
      // A session of its own, since profiling is fixed when a session is created.
      const prefix = `${request.out_dir}/profile${++profiles}`;
      const session = await ort.InferenceSession.create(request.model, { ...sessionOptions, enableProfiling: true, profileFilePrefix: prefix });
      const entry = { session, feeds: null };
      const warmup = request.warmup | 0, runs = Math.max(1, request.runs | 0);
      try {
        await timeRuns(entry, warmup + runs, null);
      } finally {
        session.endProfiling();
        await session.release();
      }
      const dir = require('path').dirname(prefix), base = require('path').basename(prefix) + '_';
      const file = fs.readdirSync(dir).find((f) => f.startsWith(base) && f.endsWith('.json'));
      if (!file) throw new Error(`ONNX Runtime wrote no profile for ${request.model}`);
      const events = JSON.parse(fs.readFileSync(`${dir}/${file}`, 'utf8'));
      fs.unlinkSync(`${dir}/${file}`);
      const windows = events.filter((e) => e.cat === 'Session' && e.name === 'model_run').sort((x, y) => x.ts - y.ts).slice(-runs);
      const nodes = events.filter((e) => e.cat === 'Node' && e.name.endsWith('_kernel_time'));
      const isReorder = (e) => e.args && (e.args.op_name === 'ReorderInput' || e.args.op_name === 'ReorderOutput');
      const inRun = (w) => nodes.filter((e) => e.ts >= w.ts && e.ts <= w.ts + w.dur);
      const total = (events) => events.reduce((sum, e) => sum + e.dur, 0) / 1e3;
      const ms = windows.map((w) => total(inRun(w)));
      const reorderMs = windows.map((w) => total(inRun(w).filter(isReorder)));
      return { ms, reorder_ms: reorderMs };
    }
    case 'compare': {
      // Interleaved: each round runs both models, the order alternating (ABBA), so drift in the
      // machine's load falls on both alike.
      const entries = [];
      for (const model of request.models) entries.push(await load(model));
      for (const entry of entries) await timeRuns(entry, request.warmup | 0, null);
      const ms = entries.map(() => []);
      for (let round = 0; round < Math.max(1, request.rounds | 0); ++round) {
        const order = entries.map((_, i) => i);
        if (round % 2) order.reverse();
        for (const i of order) await timeRuns(entries[i], 1, ms[i]);
      }
      return { ms };
    }
    case 'run': {
      // Inputs travel as raw little-endian float32 or int64 files (token ids), outputs as float32.
      const { session } = await load(request.model);
      const feeds = {};
      session.inputNames.forEach((name, i) => {
        const given = request.inputs[name];
        if (!given) throw new Error(`no value given for input '${name}'`);
        const type = given.type || 'float32';
        if (type !== 'float32' && type !== 'int64') throw new Error(`input '${name}' comes as ${type}; the worker reads float32 and int64`);
        if (session.inputMetadata[i].type !== type) throw new Error(`input '${name}' is ${session.inputMetadata[i].type}, given ${type}`);
        const bytes = fs.readFileSync(given.file);
        const Array = typedArrays[type];
        // Sliced: the file's bytes need not be aligned for the typed array.
        const data = new Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
        feeds[name] = new ort.Tensor(type, data, given.dims);
      });
      const results = await session.run(feeds);
      const outputs = session.outputNames.map((name, i) => {
        const tensor = results[name];
        if (tensor.type !== 'float32') throw new Error(`output '${name}' is ${tensor.type}, not float32`);
        const file = `${request.out_dir}/output_${i}.f32`;
        fs.writeFileSync(file, Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
        return { name, dims: tensor.dims, file };
      });
      return { outputs };
    }
    default:
      throw new Error(`unknown request '${request.cmd}'`);
  }
}

async function serve() {
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let reply;
    try {
      reply = { ok: true, ...(await handle(JSON.parse(line))) };
    } catch (e) {
      reply = { ok: false, error: e.message };
    }
    process.stdout.write(JSON.stringify(reply) + '\n');
  }
}

// The speedup of B over A in percent, (A - B) / A * 100 on the medians, with a 95 % interval from
// resampling the rounds (a fixed-seed bootstrap, so a report can be reproduced from its timings).
function speedupWithInterval(a, b) {
  const median = (v) => {
    const s = [...v].sort((x, y) => x - y);
    const n = s.length;
    return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  };
  const pct = (x, y) => ((median(x) - median(y)) / median(x)) * 100;
  let state = 12345;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const samples = [];
  for (let k = 0; k < 2000; ++k) {
    const ra = [], rb = [];
    for (let i = 0; i < a.length; ++i) {
      const j = Math.floor(next() * a.length);
      ra.push(a[j]);
      rb.push(b[j]);
    }
    samples.push(pct(ra, rb));
  }
  samples.sort((x, y) => x - y);
  return {
    original_ms: median(a), optimized_ms: median(b), speedup_pct: pct(a, b),
    speedup_ci_pct: [samples[Math.floor(0.025 * samples.length)], samples[Math.ceil(0.975 * samples.length) - 1]],
  };
}

// Largest absolute difference between the two models' outputs (by position) on the dummy feeds.
async function outputDifference(first, second) {
  const [x, y] = [await load(first), await load(second)];
  for (const entry of [x, y]) if (!entry.feeds) entry.feeds = dummyFeeds(entry.session);
  const rx = await x.session.run(x.feeds), ry = await y.session.run(y.feeds);
  const ox = x.session.outputNames.map((n) => rx[n]), oy = y.session.outputNames.map((n) => ry[n]);
  if (ox.length !== oy.length) throw new Error(`${first} has ${ox.length} outputs, ${second} ${oy.length}`);
  let maxAbs = 0, maxRef = 0;
  ox.forEach((t, i) => {
    const u = oy[i];
    if (t.dims.join(',') !== u.dims.join(',')) throw new Error(`output ${i} is [${t.dims}] in ${first}, [${u.dims}] in ${second}`);
    for (let k = 0; k < t.data.length; ++k) {
      maxAbs = Math.max(maxAbs, Math.abs(Number(t.data[k]) - Number(u.data[k])));
      maxRef = Math.max(maxRef, Math.abs(Number(t.data[k])));
    }
  });
  return { max_abs_diff: maxAbs, max_abs_output: maxRef };
}

async function compareFiles(original, optimized, rounds) {
  const difference = await outputDifference(original, optimized);
  const reply = await handle({ cmd: 'compare', models: [original, optimized], warmup: 10, rounds });
  const summary = speedupWithInterval(reply.ms[0], reply.ms[1]);
  process.stdout.write(JSON.stringify({ version: ortVersion, threads, clock, original, optimized, rounds, ...summary, ...difference, ms: reply.ms }) + '\n');
}

if (process.argv[3] === 'compare') {
  compareFiles(process.argv[4], process.argv[5], parseInt(process.argv[6] || '30', 10)).catch((e) => {
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  });
} else {
  serve();
}
