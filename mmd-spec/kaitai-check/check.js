#!/usr/bin/env node
// Compiles mmd-spec's generated Kaitai Struct grammars (../kaitai/{pmx,pmd,vmd}.ksy) with
// the real compiler (JavaScript target), parses every file named on the command line with
// the compiled parser, and prints one JSON object per file on its own line:
//
//   {"file": ..., "format": "pmx", "ok": true, "leftover": 0, "summary": {...}}
//
// The summary holds section counts and a sample of field values (header fields, first and
// last records of every section, a few totals); mmd-spec/tests/kaitai.rs builds the same
// summary from mmd-formats' reader and compares them field by field. A parse error, or a
// parse that stops before the end of the file (leftover bytes), is a failure.
//
// Usage: node check.js [--ksy-dir DIR] FILE...
// Exit codes: 0 every file parsed to its end; 1 some file failed; 2 usage or compile error.
'use strict';

const fs = require('fs');
const path = require('path');
const yaml = require('js-yaml');
const compiler = require('kaitai-struct-compiler');
const KaitaiStream = require('kaitai-struct/KaitaiStream');

const FORMATS = ['pmx', 'pmd', 'vmd'];

function usage(msg, code = 2) {
  (code ? process.stderr : process.stdout).write(`${msg}\nusage: node check.js [--ksy-dir DIR] FILE...\n`);
  process.exit(code);
}

// Compiles one .ksy and returns its root class.
async function compileKsy(file) {
  const ksy = yaml.load(fs.readFileSync(file, 'utf8'));
  const out = await compiler.compile('javascript', ksy, null, false);
  const exportsObj = {};
  for (const [name, src] of Object.entries(out)) {
    // The generated module is UMD; hand it CommonJS `exports` and our `require`.
    new Function('exports', 'require', src)(exportsObj, require);
    if (!name.endsWith('.js')) throw new Error(`unexpected compiler output ${name}`);
  }
  const cls = Object.values(exportsObj).find((v) => typeof v === 'function');
  if (!cls) throw new Error(`no parser class compiled from ${file}`);
  return cls;
}

// ---- value helpers: the same shapes as the Rust side builds ----

// A float as JSON: a number, or a string for what JSON cannot hold (and for -0).
function f(x) {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (Object.is(x, -0)) return '-0';
  return x;
}
const fa = (a) => a.map(f);
const hex = (b) => Buffer.from(b).toString('hex');
const opt = (x) => (x === undefined ? null : x);
const first = (a, g) => (a.length ? g(a[0]) : null);
const last = (a, g) => (a.length ? g(a[a.length - 1]) : null);
const utf8 = new TextDecoder('utf-8');

// PMX text: the decoded string (raw bytes of an unknown encoding decoded as UTF-8, lossily).
function txt(t) {
  if (t.value instanceof Uint8Array) return utf8.decode(t.value);
  return t.value.text;
}

// ---- PMX ----

function pmxWeight(w) {
  const t = w.weightType;
  const out = { type: t, bones: [], weights: [], sdef: null };
  if (t === 0) {
    out.bones = [w.bdef1.bone];
  } else if (t === 1) {
    out.bones = w.bdef2.bones;
    out.weights = [f(w.bdef2.weight)];
  } else if (t === 2) {
    out.bones = w.bdef4.bones;
    out.weights = fa(w.bdef4.weights);
  } else if (t === 3) {
    out.bones = w.sdef.bones;
    out.weights = [f(w.sdef.weight)];
    out.sdef = fa([...w.sdef.c, ...w.sdef.r0, ...w.sdef.r1]);
  } else if (t === 4) {
    out.bones = w.qdef.bones;
    out.weights = fa(w.qdef.weights);
  }
  return out;
}

function pmxVertex(v) {
  return {
    position: fa(v.position),
    normal: fa(v.normal),
    uv: fa(v.uv),
    additional_uv: v.additionalUv.map((a) => fa(a.items)),
    weight: pmxWeight(v.weight),
    edge_scale: f(v.edgeScale),
  };
}

function pmxMaterial(m) {
  const flag = m.toon.sharedToonFlag;
  return {
    name: txt(m.name),
    name_en: txt(m.nameEn),
    diffuse: fa(m.diffuse),
    specular: fa(m.specular),
    specular_strength: f(m.specularStrength),
    ambient: fa(m.ambient),
    flags: m.flags.bits,
    edge_color: fa(m.edgeColor),
    edge_size: f(m.edgeSize),
    texture: m.texture,
    sphere_texture: m.sphereTexture,
    sphere_mode: m.sphereMode,
    toon_flag: flag,
    toon_value: flag === 0 ? m.toon.texture : m.toon.shared,
    memo: txt(m.memo),
    face_count: m.faceCount,
  };
}

function pmxIkLink(l) {
  return {
    bone: l.bone,
    has_limit: l.hasLimit,
    limit_min: l.limitMin === undefined ? null : fa(l.limitMin),
    limit_max: l.limitMax === undefined ? null : fa(l.limitMax),
  };
}

function pmxBone(b) {
  const tailIsBone = b.flags.tailIsBone;
  return {
    name: txt(b.name),
    name_en: txt(b.nameEn),
    position: fa(b.position),
    parent: b.parent,
    layer: b.layer,
    flags: b.flags.bits,
    tail_bone: tailIsBone ? b.tail.bone : null,
    tail_offset: tailIsBone ? null : fa(b.tail.offset),
    inherit: b.inherit === undefined ? null : { parent: b.inherit.parent, weight: f(b.inherit.weight) },
    fixed_axis: b.fixedAxis === undefined ? null : fa(b.fixedAxis),
    local_axes: b.localAxes === undefined ? null : { x: fa(b.localAxes.x), z: fa(b.localAxes.z) },
    external_parent: opt(b.externalParent),
    ik:
      b.ik === undefined
        ? null
        : {
            target: b.ik.target,
            loop_count: b.ik.loopCount,
            limit_angle: f(b.ik.limitAngle),
            links: b.ik.links.length,
            link_first: first(b.ik.links, pmxIkLink),
            link_last: last(b.ik.links, pmxIkLink),
          },
  };
}

// The variant field of each morph type, in type order (camel case of the Kaitai ids).
const MORPH_VARIANTS = [
  'group', 'vertex', 'bone', 'uv', 'additionalUv1', 'additionalUv2', 'additionalUv3',
  'additionalUv4', 'material', 'flip', 'impulse',
];

function pmxMorphOffset(type, o) {
  switch (type) {
    case 0:
    case 9:
      return { morph: o.morph, weight: f(o.weight) };
    case 1:
      return { vertex: o.vertex, offset: fa(o.offset) };
    case 2:
      return { bone: o.bone, translation: fa(o.translation), rotation: fa(o.rotation) };
    case 3:
    case 4:
    case 5:
    case 6:
    case 7:
      return { vertex: o.vertex, offset: fa(o.offset) };
    case 8:
      return {
        material: o.material,
        operation: o.operation,
        diffuse: fa(o.diffuse),
        specular: fa(o.specular),
        specular_strength: f(o.specularStrength),
        ambient: fa(o.ambient),
        edge_color: fa(o.edgeColor),
        edge_size: f(o.edgeSize),
        texture_tint: fa(o.textureTint),
        sphere_tint: fa(o.sphereTint),
        toon_tint: fa(o.toonTint),
      };
    case 10:
      return { rigid_body: o.rigidBody, local: o.local, velocity: fa(o.velocity), torque: fa(o.torque) };
    default:
      throw new Error(`morph type ${type}`);
  }
}

function pmxMorphList(m) {
  return m.offsets[MORPH_VARIANTS[m.offsets.morphType]];
}

function pmxMorph(m) {
  const t = m.offsets.morphType;
  const list = pmxMorphList(m);
  return {
    name: txt(m.name),
    name_en: txt(m.nameEn),
    panel: m.panel,
    type: t,
    count: list.length,
    offset_first: first(list, (o) => pmxMorphOffset(t, o)),
    offset_last: last(list, (o) => pmxMorphOffset(t, o)),
  };
}

function pmxElement(e) {
  const t = e.displayFrameElementTarget;
  return { target: t, index: t === 0 ? e.bone : e.morph };
}

function pmxFrame(d) {
  return {
    name: txt(d.name),
    name_en: txt(d.nameEn),
    special: d.special,
    elements: d.elements.length,
    element_first: first(d.elements, pmxElement),
    element_last: last(d.elements, pmxElement),
  };
}

function pmxRigid(r) {
  return {
    name: txt(r.name),
    name_en: txt(r.nameEn),
    bone: r.bone,
    group: r.group,
    collision_mask: r.collisionMask,
    shape: r.shape,
    size: fa(r.size),
    position: fa(r.position),
    rotation: fa(r.rotation),
    mass: f(r.mass),
    linear_damping: f(r.linearDamping),
    angular_damping: f(r.angularDamping),
    restitution: f(r.restitution),
    friction: f(r.friction),
    mode: r.mode,
  };
}

function pmxJoint(j) {
  return {
    name: txt(j.name),
    name_en: txt(j.nameEn),
    kind: j.kind,
    rigid_a: j.rigidA,
    rigid_b: j.rigidB,
    position: fa(j.position),
    rotation: fa(j.rotation),
    translation_min: fa(j.translationMin),
    translation_max: fa(j.translationMax),
    rotation_min: fa(j.rotationMin),
    rotation_max: fa(j.rotationMax),
    spring_translation: fa(j.springTranslation),
    spring_rotation: fa(j.springRotation),
  };
}

function pmxSoft(s) {
  const anchor = (a) => ({ rigid_body: a.rigidBody, vertex: a.vertex, near_mode: a.nearMode });
  return {
    name: txt(s.name),
    name_en: txt(s.nameEn),
    shape: s.shape,
    material: s.material,
    group: s.group,
    collision_mask: s.collisionMask,
    flags: s.flags.bits,
    b_link_distance: s.bLinkDistance,
    cluster_count: s.clusterCount,
    total_mass: f(s.totalMass),
    collision_margin: f(s.collisionMargin),
    aero_model: s.aeroModel,
    vcf: f(s.vcf),
    ss_splt_cl: f(s.ssSpltCl),
    v_it: s.vIt,
    c_it: s.cIt,
    lst: hex(s.lst),
    ast: hex(s.ast),
    vst: hex(s.vst),
    anchors: s.anchors.length,
    anchor_first: first(s.anchors, anchor),
    anchor_last: last(s.anchors, anchor),
    pins: s.pins.length,
    pin_first: first(s.pins, (x) => x),
    pin_last: last(s.pins, (x) => x),
  };
}

function pmxSummary(p) {
  const weightTypes = [0, 0, 0, 0, 0];
  for (const v of p.vertices) weightTypes[v.weight.weightType] += 1;
  const morphTypes = new Array(11).fill(0);
  let offsets = 0;
  for (const m of p.morphs) {
    morphTypes[m.offsets.morphType] += 1;
    offsets += pmxMorphList(m).length;
  }
  let bitsOr = 0;
  let ikLinks = 0;
  for (const b of p.bones) {
    bitsOr |= b.flags.bits;
    if (b.ik !== undefined) ikLinks += b.ik.links.length;
  }
  const soft = p.softBodies === undefined ? null : p.softBodies.items;
  return {
    header: { version: f(p.header.version), globals: Array.from(p.header.globals) },
    model: {
      name: txt(p.model.name),
      name_en: txt(p.model.nameEn),
      comment: txt(p.model.comment),
      comment_en: txt(p.model.commentEn),
    },
    counts: {
      vertices: p.vertices.length,
      faces: p.faces.length,
      textures: p.textures.length,
      materials: p.materials.length,
      bones: p.bones.length,
      morphs: p.morphs.length,
      display_frames: p.displayFrames.length,
      rigid_bodies: p.rigidBodies.length,
      joints: p.joints.length,
      soft_bodies: soft === null ? null : soft.length,
      trailing: p.trailing.length,
    },
    vertex_first: first(p.vertices, pmxVertex),
    vertex_last: last(p.vertices, pmxVertex),
    weight_types: weightTypes,
    face_first: first(p.faces, (x) => x),
    face_last: last(p.faces, (x) => x),
    face_max: p.faces.length ? p.faces.reduce((m, x) => Math.max(m, x)) : null,
    texture_first: first(p.textures, txt),
    texture_last: last(p.textures, txt),
    material_first: first(p.materials, pmxMaterial),
    material_last: last(p.materials, pmxMaterial),
    material_faces: p.materials.reduce((n, m) => n + m.faceCount, 0),
    bone_first: first(p.bones, pmxBone),
    bone_last: last(p.bones, pmxBone),
    bone_flags_or: bitsOr,
    ik_links: ikLinks,
    morph_first: first(p.morphs, pmxMorph),
    morph_last: last(p.morphs, pmxMorph),
    morph_types: morphTypes,
    morph_offsets: offsets,
    frame_first: first(p.displayFrames, pmxFrame),
    frame_last: last(p.displayFrames, pmxFrame),
    frame_elements: p.displayFrames.reduce((n, d) => n + d.elements.length, 0),
    rigid_first: first(p.rigidBodies, pmxRigid),
    rigid_last: last(p.rigidBodies, pmxRigid),
    joint_first: first(p.joints, pmxJoint),
    joint_last: last(p.joints, pmxJoint),
    soft_first: soft === null ? null : first(soft, pmxSoft),
    soft_last: soft === null ? null : last(soft, pmxSoft),
  };
}

// ---- PMD ----

function pmdSummary(p) {
  const vertex = (v) => ({
    position: fa(v.position),
    normal: fa(v.normal),
    uv: fa(v.uv),
    bones: v.bones,
    weight: v.weight,
    edge_flag: v.edgeFlag,
  });
  const material = (m) => ({
    diffuse: fa(m.diffuse),
    specularity: f(m.specularity),
    specular: fa(m.specular),
    ambient: fa(m.ambient),
    toon_index: m.toonIndex,
    edge_flag: m.edgeFlag,
    face_vertex_count: m.faceVertexCount,
    texture: m.texture,
  });
  const bone = (b) => ({
    name: b.name,
    parent: b.parent,
    tail: b.tail,
    bone_type: b.boneType,
    ik_parent: b.ikParent,
    position: fa(b.position),
  });
  const ik = (c) => ({
    ik_bone: c.ikBone,
    effector: c.effector,
    link_count: c.linkCount,
    iterations: c.iterations,
    control_weight: f(c.controlWeight),
    links: c.links,
  });
  const element = (e) => ({ index: e.index, position: fa(e.position) });
  const morph = (m) => ({
    name: m.name,
    element_count: m.elementCount,
    morph_type: m.morphType,
    element_first: first(m.elements, element),
    element_last: last(m.elements, element),
  });
  const rigid = (r) => ({
    name: r.name,
    bone: r.bone,
    group: r.group,
    collision_mask: r.collisionMask,
    shape: r.shape,
    size: fa(r.size),
    position: fa(r.position),
    rotation: fa(r.rotation),
    mass: f(r.mass),
    linear_damping: f(r.linearDamping),
    angular_damping: f(r.angularDamping),
    restitution: f(r.restitution),
    friction: f(r.friction),
    mode: r.mode,
  });
  const joint = (j) => ({
    name: j.name,
    rigid_a: j.rigidA,
    rigid_b: j.rigidB,
    position: fa(j.position),
    rotation: fa(j.rotation),
    position_min: fa(j.positionMin),
    position_max: fa(j.positionMax),
    rotation_min: fa(j.rotationMin),
    rotation_max: fa(j.rotationMax),
    spring_position: fa(j.springPosition),
    spring_rotation: fa(j.springRotation),
  });
  const display = (d) => ({ bone: d.bone, frame: d.frame });
  const eng = p.english === undefined ? null : p.english;
  const names = eng === null || eng.names === undefined ? null : eng.names;
  const rigids = p.rigidBodies === undefined ? null : p.rigidBodies.items;
  const joints = p.joints === undefined ? null : p.joints.items;
  return {
    header: { version: f(p.header.version), name: p.header.name, comment: p.header.comment },
    counts: {
      vertices: p.vertices.length,
      faces: p.faces.length,
      materials: p.materials.length,
      bones: p.bones.length,
      ik_chains: p.ikChains.length,
      morphs: p.morphs.length,
      morph_display: p.morphDisplay.length,
      frame_names: p.frameNames.length,
      bone_display: p.boneDisplay.length,
      english_flag: eng === null ? null : eng.flag,
      english_names: names !== null,
      toon_textures: p.toonTextures !== undefined,
      rigid_bodies: rigids === null ? null : rigids.length,
      joints: joints === null ? null : joints.length,
      trailing: p.trailing.length,
    },
    vertex_first: first(p.vertices, vertex),
    vertex_last: last(p.vertices, vertex),
    face_first: first(p.faces, (x) => x),
    face_last: last(p.faces, (x) => x),
    material_first: first(p.materials, material),
    material_last: last(p.materials, material),
    bone_first: first(p.bones, bone),
    bone_last: last(p.bones, bone),
    ik_first: first(p.ikChains, ik),
    ik_last: last(p.ikChains, ik),
    morph_first: first(p.morphs, morph),
    morph_last: last(p.morphs, morph),
    morph_elements: p.morphs.reduce((n, m) => n + m.elements.length, 0),
    morph_display: p.morphDisplay,
    frame_names: p.frameNames,
    bone_display_first: first(p.boneDisplay, display),
    bone_display_last: last(p.boneDisplay, display),
    english:
      names === null
        ? null
        : {
            model_name: names.modelName,
            comment: names.comment,
            bone_names: names.boneNames,
            morph_names: names.morphNames,
            frame_names: names.frameNames,
          },
    toon_textures: p.toonTextures === undefined ? null : p.toonTextures.names,
    rigid_first: rigids === null ? null : first(rigids, rigid),
    rigid_last: rigids === null ? null : last(rigids, rigid),
    joint_first: joints === null ? null : first(joints, joint),
    joint_last: joints === null ? null : last(joints, joint),
  };
}

// ---- VMD ----

function vmdSummary(v) {
  const block = (b) => (b === undefined ? null : b.items);
  const morphs = block(v.morphKeys);
  const cameras = block(v.cameraKeys);
  const lights = block(v.lightKeys);
  const shadows = block(v.selfShadowKeys);
  const showIks = block(v.showIkKeys);
  const n = (a) => (a === null ? null : a.length);
  const bone = (k) => ({
    name: k.name,
    frame: k.frame,
    position: fa(k.position),
    rotation: fa(k.rotation),
    interpolation: hex(k.interpolation),
  });
  const morph = (k) => ({ name: k.name, frame: k.frame, weight: f(k.weight) });
  const camera = (k) => ({
    frame: k.frame,
    distance: f(k.distance),
    target: fa(k.target),
    rotation: fa(k.rotation),
    interpolation: hex(k.interpolation),
    fov: k.fov,
    perspective: k.perspective,
  });
  const light = (k) => ({ frame: k.frame, color: fa(k.color), direction: fa(k.direction) });
  const shadow = (k) => ({ frame: k.frame, mode: k.mode, distance: f(k.distance) });
  const ikState = (s) => ({ name: s.name, enabled: s.enabled });
  const showIk = (k) => ({
    frame: k.frame,
    show: k.show,
    ik: k.ik.length,
    ik_first: first(k.ik, ikState),
    ik_last: last(k.ik, ikState),
  });
  const pair = (a, g) => (a === null ? [null, null] : [first(a, g), last(a, g)]);
  const mn = v.header.modelName;
  return {
    header: {
      signature: hex(v.header.signature),
      version: v.header.version,
      model_name: mn.v2 !== undefined ? mn.v2 : mn.v1,
    },
    counts: {
      bone_keys: v.boneKeys.length,
      morph_keys: n(morphs),
      camera_keys: n(cameras),
      light_keys: n(lights),
      self_shadow_keys: n(shadows),
      show_ik_keys: n(showIks),
      trailing: v.trailing.length,
    },
    bone: [first(v.boneKeys, bone), last(v.boneKeys, bone)],
    bone_frame_max: v.boneKeys.reduce((m, k) => Math.max(m, k.frame), 0),
    morph: pair(morphs, morph),
    camera: pair(cameras, camera),
    light: pair(lights, light),
    self_shadow: pair(shadows, shadow),
    show_ik: pair(showIks, showIk),
  };
}

const SUMMARIES = { pmx: pmxSummary, pmd: pmdSummary, vmd: vmdSummary };

function formatOf(file) {
  const ext = path.extname(file).slice(1).toLowerCase();
  return FORMATS.includes(ext) ? ext : null;
}

async function main() {
  const args = process.argv.slice(2);
  let ksyDir = path.join(__dirname, '..', 'kaitai');
  const files = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--ksy-dir') {
      ksyDir = args[++i];
      if (ksyDir === undefined) usage('--ksy-dir needs a folder');
    } else if (args[i] === '--help' || args[i] === '-h') {
      usage('Parses PMX, PMD and VMD files with the parsers compiled from the .ksy files.', 0);
    } else {
      files.push(args[i]);
    }
  }
  const t0 = Date.now();
  const parsers = {};
  for (const fmt of FORMATS) {
    const file = path.join(ksyDir, `${fmt}.ksy`);
    try {
      parsers[fmt] = await compileKsy(file);
    } catch (e) {
      process.stderr.write(`cannot compile ${file}: ${e && e.stack ? e.stack : JSON.stringify(e)}\n`);
      process.exit(2);
    }
  }
  const t1 = Date.now();
  let failed = 0;
  for (const file of files) {
    const fmt = formatOf(file);
    const out = { file, format: fmt, ok: false };
    try {
      if (fmt === null) throw new Error('not a .pmx, .pmd or .vmd file');
      const buf = fs.readFileSync(file);
      const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length);
      const io = new KaitaiStream(ab);
      const parsed = new parsers[fmt](io);
      out.leftover = io.size - io.pos;
      out.summary = SUMMARIES[fmt](parsed);
      out.ok = out.leftover === 0;
      if (!out.ok) out.error = `parse stopped ${out.leftover} byte(s) before the end of the file`;
    } catch (e) {
      out.error = e && e.message ? `${e.constructor.name}: ${e.message}` : String(e);
    }
    if (!out.ok) failed += 1;
    process.stdout.write(`${JSON.stringify(out)}\n`);
  }
  const t2 = Date.now();
  process.stderr.write(
    `kaitai-check: compiled 3 grammars in ${t1 - t0} ms, parsed ${files.length} file(s) in ${t2 - t1} ms, ${failed} failed\n`,
  );
  process.exit(failed ? 1 : 0);
}

main();
