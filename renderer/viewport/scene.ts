/**
 * The three.js viewport, kept outside React's render cycle: it subscribes to
 * the vanilla stores and redraws on demand (store change, camera move,
 * playback), reading state with getState().
 *
 * Drawn: the source (MTN) skeleton and the decoded (MT3) skeleton overlaid in
 * two colours, the root trajectory over all frames, the linear trace path with
 * its keys, the locked joint marked on frames where a LOCK holds, and the
 * selected joint.
 */
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { decodeTraceTrack, samplePositionTrack, sampleRotationTrack } from '../../shared/mt3/decode';
import { decodeResult } from '../math/decodedResult';
import { KeyFlag, lockedJointAt, type Motion } from '../../shared/motion/types';
import type { Mt3Motion } from '../../shared/mt3/types';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { preferencesStore, type PreferencesState } from '../state/preferencesStore';
import { compressionStore } from '../state/compressionStore';
import { createPoseBuffers, parentsOf, solvePose, sourceOffset, sourceRotation, type PoseBuffers } from '../math/pose';
import { COLORS } from '../theme';
import { classifyError, jointErrorRatios, onionFrames, type ErrorClass } from './viewMath';
import {
  FOLLOW_LIMIT,
  THREE_QUARTER_VIEW,
  characterBox,
  fitCamera,
  followRoot,
  motionExtent,
  poseExtentNdc,
} from './framing';
import { counted, disposeDrawables, liveMaterials } from './gpuResources';

/** Line segments (parent -> child) of a skeleton plus joint points. */
class SkeletonGraphic {
  readonly group = new THREE.Group();
  private readonly bones: THREE.LineSegments;
  private readonly points: THREE.Points;
  private readonly bonePositions: Float32Array;
  private readonly pointPositions: Float32Array;

  /** Per-joint point colours (RGB), when the skeleton was built with them. */
  private readonly pointColors: Float32Array | null;

  constructor(
    private readonly parents: Int32Array,
    color: string,
    pointSize: number,
    /** Drawn over everything else (the decoded skeleton sits on top of the source it nearly coincides with). */
    onTop = false,
    /** Points coloured one by one (setJointColors) instead of in the skeleton's colour. */
    jointColors = false,
  ) {
    const J = parents.length;
    this.bonePositions = new Float32Array(Math.max(1, J - 1) * 2 * 3);
    const bg = new THREE.BufferGeometry();
    bg.setAttribute('position', new THREE.BufferAttribute(this.bonePositions, 3));
    this.bones = new THREE.LineSegments(
      bg,
      counted(new THREE.LineBasicMaterial({ color, transparent: true, opacity: 0.95 })),
    );
    this.pointPositions = new Float32Array(J * 3);
    const pg = new THREE.BufferGeometry();
    pg.setAttribute('position', new THREE.BufferAttribute(this.pointPositions, 3));
    this.pointColors = jointColors ? new Float32Array(J * 3).fill(1) : null;
    if (this.pointColors) pg.setAttribute('color', new THREE.BufferAttribute(this.pointColors, 3));
    this.points = new THREE.Points(
      pg,
      counted(
        new THREE.PointsMaterial({
          color: jointColors ? '#ffffff' : color,
          vertexColors: jointColors,
          size: pointSize,
          sizeAttenuation: false,
          transparent: true,
        }),
      ),
    );
    this.bones.frustumCulled = false;
    this.points.frustumCulled = false;
    if (onTop) {
      // Coincident lines z-fight; a fixed order makes the overlay read the same from every angle.
      for (const o of [this.bones, this.points]) {
        (o.material as THREE.Material).depthTest = false;
        o.renderOrder = 5;
      }
    }
    this.group.add(this.bones, this.points);
  }

  /** Colour and opacity of bones and points (a ghost is faint, a solid skeleton nearly opaque). */
  setStyle(color: string, opacity: number, pointOpacity = opacity): void {
    const bm = this.bones.material as THREE.LineBasicMaterial;
    bm.color.set(color);
    bm.opacity = opacity;
    const pm = this.points.material as THREE.PointsMaterial;
    if (!this.pointColors) pm.color.set(color);
    pm.opacity = pointOpacity;
  }

  /** Sets each joint's point colour (skeletons built with jointColors). */
  setJointColors(rgb: (joint: number) => THREE.Color): void {
    const c = this.pointColors;
    if (!c) return;
    for (let j = 0; j < this.parents.length; j++) {
      const col = rgb(j);
      c[j * 3] = col.r;
      c[j * 3 + 1] = col.g;
      c[j * 3 + 2] = col.b;
    }
    (this.points.geometry.getAttribute('color') as THREE.BufferAttribute).needsUpdate = true;
  }

  update(positions: Float32Array): void {
    let k = 0;
    for (let j = 0; j < this.parents.length; j++) {
      const p = this.parents[j];
      if (p < 0) continue;
      this.bonePositions[k++] = positions[p * 3];
      this.bonePositions[k++] = positions[p * 3 + 1];
      this.bonePositions[k++] = positions[p * 3 + 2];
      this.bonePositions[k++] = positions[j * 3];
      this.bonePositions[k++] = positions[j * 3 + 1];
      this.bonePositions[k++] = positions[j * 3 + 2];
    }
    this.pointPositions.set(positions);
    (this.bones.geometry.getAttribute('position') as THREE.BufferAttribute).needsUpdate = true;
    (this.points.geometry.getAttribute('position') as THREE.BufferAttribute).needsUpdate = true;
  }

  dispose(): void {
    disposeDrawables(this.bones, this.points);
  }
}

/** Per-motion scene content, rebuilt when the motion's skeleton/data changes. */
interface MotionContent {
  motion: Motion;
  parents: Int32Array;
  source: SkeletonGraphic;
  decoded: SkeletonGraphic;
  sourcePose: PoseBuffers;
  decodedPose: PoseBuffers;
  trajectory: THREE.Line;
  bounds: THREE.Box3;
  /**
   * Every sampled pose's joints relative to that frame's root on the floor plane (x, z; y stays world): the
   * room the character needs around its root, for framing it whatever frame is on screen.
   */
  envelope: THREE.Box3;
  /** Onion-skin skeletons (ONION_COUNT before, ONION_COUNT after) and their scratch pose. */
  onion: SkeletonGraphic[];
  onionPose: PoseBuffers;
  /** Frames the onion skeletons show now (empty when the onion skin is off). */
  onionShown: number[];
}

/** Onion-skin poses on each side of the playhead, and their spacing in frames. */
export const ONION_COUNT = 3;
function onionStep(fps: number): number {
  return Math.max(1, Math.round(fps / 7.5));
}
const ERROR_COLORS: Record<ErrorClass, THREE.Color> = {
  ok: new THREE.Color(COLORS.errorOk),
  near: new THREE.Color(COLORS.errorNear),
  over: new THREE.Color(COLORS.errorOver),
};
const DECODED_COLOR = new THREE.Color(COLORS.decoded);

/**
 * The preferences a drawn frame reads (updatePose, the camera's Follow): a change of another (the timeline's grouping,
 * a fold of the tuning panel, a splitter's size at each move) drew the whole scene again for nothing
 * (docs/architecture.md, "Renderer review, round 8").
 */
const VIEWPORT_PREFERENCES = [
  'showGhost',
  'showOnionSkin',
  'showTrajectory',
  'showTrace',
  'followCamera',
] as const satisfies readonly (keyof PreferencesState)[];

export class ViewportScene {
  private readonly renderer: THREE.WebGLRenderer;
  private readonly scene = new THREE.Scene();
  private readonly camera = new THREE.PerspectiveCamera(40, 1, 0.1, 100000);
  private readonly controls: OrbitControls;
  private readonly grid = new THREE.Group();
  private content: MotionContent | null = null;
  private traceLine: THREE.Line | null = null;
  private traceKeys: THREE.Points | null = null;
  private readonly lockMarker: THREE.Mesh;
  private readonly selectedMarker: THREE.Mesh;
  private needsRender = true;
  /**
   * The host's size in CSS px as of the last resize (the ResizeObserver keeps it current): read here instead of
   * clientWidth, which would force a layout in every frame the DOM changed in.
   */
  private size = { w: 1, h: 1 };
  /** The animation frame asked for, 0 when none: frames are asked for only when something changed (invalidate). */
  private raf = 0;
  /** The host has no size (its panel is hidden by a work mode or collapsed): nothing is drawn until it has one. */
  private hidden = false;
  private disposed = false;
  private readonly unsubscribers: (() => void)[] = [];
  private readonly resizeObserver: ResizeObserver;
  private lastFrameAllRequest = -1;
  /** Root position the camera was last moved to while following. */
  private followAnchor: THREE.Vector3 | null = null;
  /** Name tag of the selected joint, an HTML element over the canvas. */
  private readonly label: HTMLDivElement;
  private readonly q = new Float64Array(4);
  private readonly root = new Float64Array(4);
  /** Error class of each decoded joint at the frame drawn (empty without a decoded skeleton). */
  private errorClasses: ErrorClass[] = [];
  /** A motion was loaded and not yet drawn: a Frame all request now is the open's, which frames the character. */
  private justOpened = false;

  constructor(private readonly host: HTMLElement) {
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(window.devicePixelRatio || 1);
    this.renderer.setClearColor(COLORS.viewportBg);
    this.renderer.domElement.dataset.testid = 'viewport-canvas';
    // A canvas has no role of its own: without one, its label reached no screen reader (docs/architecture.md,
    // "Renderer review, round 7"). An image, as the curve view's and the timeline's canvases are.
    this.renderer.domElement.setAttribute('role', 'img');
    this.renderer.domElement.setAttribute('aria-label', '3D viewport: source and decoded skeletons');
    host.appendChild(this.renderer.domElement);

    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.enableDamping = false;
    this.controls.screenSpacePanning = true;
    this.controls.addEventListener('change', () => this.invalidate());

    this.scene.add(new THREE.AmbientLight(0xffffff, 1));
    this.scene.add(this.grid);

    const markerGeo = new THREE.SphereGeometry(1, 16, 12);
    this.lockMarker = new THREE.Mesh(
      new THREE.TorusGeometry(1, 0.18, 8, 24),
      counted(new THREE.MeshBasicMaterial({ color: COLORS.lock, depthTest: false, transparent: true })),
    );
    this.lockMarker.rotation.x = Math.PI / 2;
    this.lockMarker.renderOrder = 10;
    this.selectedMarker = new THREE.Mesh(
      markerGeo,
      counted(
        new THREE.MeshBasicMaterial({ color: COLORS.selection, depthTest: false, transparent: true, opacity: 0.85 }),
      ),
    );
    this.selectedMarker.renderOrder = 11;
    this.scene.add(this.lockMarker, this.selectedMarker);

    // Click (without dragging the camera) on a joint selects it.
    let down: { x: number; y: number } | null = null;
    this.renderer.domElement.addEventListener('pointerdown', (e) => (down = { x: e.clientX, y: e.clientY }));
    this.renderer.domElement.addEventListener('pointerup', (e) => {
      if (down && Math.hypot(e.clientX - down.x, e.clientY - down.y) < 4 && e.button === 0)
        this.pickJoint(e.clientX, e.clientY);
      down = null;
    });

    this.label = document.createElement('div');
    this.label.className = 'joint-label';
    this.label.dataset.testid = 'viewport-joint-label';
    host.appendChild(this.label);

    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(host);
    this.resize();

    const inv = () => this.invalidate();
    this.unsubscribers.push(
      documentStore.subscribe((s, p) => {
        if (s.motion !== p.motion) this.syncMotion();
      }),
      compressionStore.subscribe((s, p) => {
        if (s.result !== p.result) {
          this.rebuildTrace();
          inv();
        }
      }),
      sessionStore.subscribe((s, p) => {
        if (s.playhead !== p.playhead || s.selectedJoint !== p.selectedJoint) inv();
        if (s.frameAllRequest !== this.lastFrameAllRequest) this.frameAll(this.justOpened);
      }),
      preferencesStore.subscribe((s, p) => {
        if (VIEWPORT_PREFERENCES.some((k) => s[k] !== p[k])) inv();
      }),
    );
    this.syncMotion();
    this.invalidate();
  }

  /** Selects the source joint drawn nearest to a client point (within 12 px). */
  private pickJoint(clientX: number, clientY: number): void {
    const c = this.content;
    if (!c) return;
    const rect = this.renderer.domElement.getBoundingClientRect();
    const v = new THREE.Vector3();
    let best = -1;
    let bestD = 12;
    for (let j = 0; j < c.parents.length; j++) {
      v.fromArray(c.sourcePose.positions, j * 3).project(this.camera);
      if (v.z > 1) continue;
      const x = rect.left + ((v.x + 1) / 2) * rect.width;
      const y = rect.top + ((1 - v.y) / 2) * rect.height;
      const d = Math.hypot(x - clientX, y - clientY);
      if (d < bestD) {
        bestD = d;
        best = j;
      }
    }
    if (best >= 0) sessionStore.getState().select(best);
  }

  /** Asks for a frame that draws the scene again; none while the panel is hidden (its showing again asks). */
  invalidate(): void {
    this.needsRender = true;
    if (!this.raf && !this.hidden && !this.disposed) this.raf = requestAnimationFrame(this.loop);
  }

  private resize(): void {
    const w = this.host.clientWidth;
    const h = this.host.clientHeight;
    this.hidden = w === 0 || h === 0;
    if (this.hidden) return;
    this.size = { w, h };
    this.renderer.setSize(w, h, true);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.invalidate();
  }

  /** Rebuilds skeleton graphics when the skeleton or the sample data changed (not on key edits). */
  private syncMotion(): void {
    const m = documentStore.getState().motion;
    const c = this.content;
    if (c && m && c.motion.rotation === m.rotation && c.motion.joints === m.joints) {
      // Key info changed only: same geometry. The picture shows key info only through the trace drawn before the
      // first compression; once a result is on screen, the edit's own result (a moment later) is what redraws, so
      // a key toggle does not pay for a 3D frame that would look the same.
      c.motion = m;
      if (!compressionStore.getState().result?.mt3) {
        this.rebuildTrace();
        this.invalidate();
      }
      return;
    }
    this.disposeContent();
    if (!m) {
      this.invalidate();
      return;
    }
    const parents = parentsOf(m);
    const source = new SkeletonGraphic(parents, COLORS.source, 7);
    const decoded = new SkeletonGraphic(parents, COLORS.decoded, 6, true, true);
    const onion = Array.from({ length: ONION_COUNT * 2 }, () => new SkeletonGraphic(parents, COLORS.onionBefore, 3));
    // Root trajectory, bounds and the character's envelope over the source (renderer/viewport/framing.ts).
    const { trajectory: traj, bounds, envelope } = motionExtent(m, parents);
    const tg = new THREE.BufferGeometry();
    tg.setAttribute('position', new THREE.BufferAttribute(traj, 3));
    const trajectory = new THREE.Line(
      tg,
      counted(new THREE.LineBasicMaterial({ color: COLORS.trajectory, transparent: true, opacity: 0.8 })),
    );
    trajectory.frustumCulled = false;
    this.scene.add(source.group, decoded.group, trajectory, ...onion.map((o) => o.group));
    this.content = {
      motion: m,
      parents,
      source,
      decoded,
      sourcePose: createPoseBuffers(parents.length),
      decodedPose: createPoseBuffers(parents.length),
      trajectory,
      bounds,
      envelope,
      onion,
      onionPose: createPoseBuffers(parents.length),
      onionShown: [],
    };
    this.followAnchor = null;
    this.rebuildGrid(bounds);
    const size = bounds.getSize(new THREE.Vector3()).length() || 1;
    const r = size * 0.012;
    this.lockMarker.scale.setScalar(r * 2.2);
    this.selectedMarker.scale.setScalar(r);
    this.rebuildTrace();
    // A motion opens framed on its character, whatever Follow says (the whole path can be long: F frames it).
    this.frameAll(true);
    this.justOpened = true;
  }

  private rebuildGrid(bounds: THREE.Box3): void {
    this.disposeGrid();
    const size = bounds.getSize(new THREE.Vector3());
    const extent = Math.max(size.x, size.z, size.y) * 1.6 || 100;
    const cell = Math.pow(10, Math.floor(Math.log10(extent / 10)));
    const divisions = Math.min(200, Math.ceil(extent / cell));
    const grid = new THREE.GridHelper(divisions * cell, divisions, COLORS.gridMajor, COLORS.grid);
    counted(grid.material as THREE.Material);
    const center = bounds.getCenter(new THREE.Vector3());
    grid.position.set(
      Math.round(center.x / cell) * cell,
      Math.min(0, bounds.min.y),
      Math.round(center.z / cell) * cell,
    );
    this.grid.add(grid);
  }

  private disposeGrid(): void {
    disposeDrawables(...(this.grid.children as THREE.GridHelper[]));
  }

  /** Takes the trace path and its keys (one geometry, two materials) out of the scene and frees them. */
  private disposeTrace(): void {
    if (this.traceLine && this.traceKeys) disposeDrawables(this.traceLine, this.traceKeys);
    this.traceLine = null;
    this.traceKeys = null;
  }

  /** The linear trace path through the decoded trace keys (MOVE stream). */
  private rebuildTrace(): void {
    this.disposeTrace();
    const mt3 = compressionStore.getState().result?.mt3;
    const m = documentStore.getState().motion;
    let pts: Float32Array | null = null;
    if (mt3?.move) {
      const d = decodeTraceTrack(mt3.move);
      pts = new Float32Array(d.p.length);
      pts.set(d.p);
    } else if (m) {
      // No compression yet (or a read-only document): the trace the compressor would
      // write — frames 0, N and every TRACE frame — taken from the source root.
      const frames: number[] = [];
      for (let f = 0; f <= m.frameCount; f++)
        if (f === 0 || f === m.frameCount || m.translationKeyInfo[f * 4] & KeyFlag.TRACE) frames.push(f);
      pts = new Float32Array(frames.length * 3);
      frames.forEach((f, i) => pts!.set(m.translation.subarray(f * 4, f * 4 + 3), i * 3));
    }
    if (!pts) return;
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(pts, 3));
    this.traceLine = new THREE.Line(g, counted(new THREE.LineBasicMaterial({ color: COLORS.trace })));
    this.traceLine.frustumCulled = false;
    this.traceKeys = new THREE.Points(
      g,
      counted(new THREE.PointsMaterial({ color: COLORS.trace, size: 7, sizeAttenuation: false })),
    );
    this.traceKeys.frustumCulled = false;
    this.scene.add(this.traceLine, this.traceKeys);
  }

  /**
   * Points the camera at the character (following, or `character` on open) or at everything the motion covers
   * (Frame all while not following). The character is framed by its envelope around the current root, so
   * every pose of the motion fits at this distance.
   */
  frameAll(character = false): void {
    this.lastFrameAllRequest = sessionStore.getState().frameAllRequest;
    const c = this.content;
    if (!c) return;
    const follow = preferencesStore.getState().followCamera;
    let box: THREE.Box3;
    if (follow || character) {
      this.updatePose(false);
      box = this.characterBox(c);
    } else {
      box = c.bounds.clone();
    }
    this.fitCamera(box, THREE_QUARTER_VIEW, 0);
    this.camera.far = Math.max(this.camera.far, c.bounds.getSize(new THREE.Vector3()).length() * 10);
    this.camera.updateProjectionMatrix();
    this.followAnchor = follow ? this.rootPosition(c) : null;
    this.invalidate();
  }

  /** The character's envelope placed at the current root (floor plane), joined with the pose on screen. */
  private characterBox(c: MotionContent): THREE.Box3 {
    return characterBox(c.envelope, this.rootPosition(c), c.sourcePose.positions, c.parents.length);
  }

  /** Frames `box` from `toCamera` (framing.fitCamera) and brings the orbit controls along. */
  private fitCamera(box: THREE.Box3, toCamera: THREE.Vector3, minDistance: number): void {
    fitCamera(this.camera, this.controls.target, box, toCamera, minDistance);
    this.controls.update();
    this.camera.updateMatrixWorld();
  }

  private rootPosition(c: MotionContent): THREE.Vector3 {
    return new THREE.Vector3(c.sourcePose.positions[0], c.sourcePose.positions[1], c.sourcePose.positions[2]);
  }

  /**
   * While following, moves camera and target with the root (horizontal only, so the floor stays put), then
   * makes sure the whole pose is in view: when a joint of either skeleton leaves the inner FOLLOW_LIMIT of the
   * view (a jump, a zoom or orbit too close), the camera re-frames the character from the same direction.
   */
  private follow(c: MotionContent): void {
    if (!preferencesStore.getState().followCamera) {
      this.followAnchor = null;
      return;
    }
    const root = this.rootPosition(c);
    if (!this.followAnchor) {
      this.followAnchor = root;
    } else if (followRoot(this.camera, this.controls.target, this.followAnchor, root)) {
      this.controls.update();
      this.followAnchor = root;
    }
    this.camera.updateMatrixWorld();
    if (this.poseExtentNdc(c) <= FOLLOW_LIMIT) return;
    const toCamera = this.camera.position.clone().sub(this.controls.target).normalize();
    this.fitCamera(this.characterBox(c), toCamera, 0);
  }

  /** Largest |x| or |y| (NDC) of the joints drawn now; Infinity when one is behind the camera. */
  private poseExtentNdc(c: MotionContent): number {
    const poses = c.decoded.group.visible
      ? [c.sourcePose.positions, c.decodedPose.positions]
      : [c.sourcePose.positions];
    return poseExtentNdc(this.camera, poses, c.parents.length);
  }

  private loop = (): void => {
    this.raf = 0;
    if (!this.needsRender || this.hidden) return;
    this.needsRender = false;
    this.updatePose();
    this.renderer.render(this.scene, this.camera);
    this.placeLabel();
    this.publishCamera();
    this.justOpened = false;
  };

  /**
   * Publishes the camera's view-projection matrix (column-major, world -> clip) and the frame drawn as data-*
   * attributes, as the curve and timeline canvases publish their time axes: tests project a joint's world position
   * (renderer/math/pose.ts) to the screen with it and click there.
   */
  private publishCamera(): void {
    const el = this.renderer.domElement;
    const vp = new THREE.Matrix4().multiplyMatrices(this.camera.projectionMatrix, this.camera.matrixWorldInverse);
    const text = vp.elements.map((v) => Number(v.toPrecision(9))).join(',');
    if (el.dataset.viewProjection !== text) el.dataset.viewProjection = text;
    const frame = String(
      this.content
        ? Math.max(0, Math.min(this.content.motion.frameCount, Math.floor(sessionStore.getState().playhead)))
        : '',
    );
    if (el.dataset.frame !== frame) el.dataset.frame = frame;
    // What the picture shows, for tests that assert on it rather than on pixels: each joint's error class,
    // whether the source ghost is drawn, how many onion poses, and the pose's bounding box in canvas CSS px.
    const c = this.content;
    const set = (key: string, value: string) => {
      if (el.dataset[key] !== value) el.dataset[key] = value;
    };
    set('jointErrors', this.errorClasses.join(','));
    set('ghost', c && c.decoded.group.visible && c.source.group.visible ? '1' : '0');
    set('onionCount', String(c?.onionShown.length ?? 0));
    set('poseBox', c ? this.poseBox(c) : '');
    // What the viewport holds on the GPU and how many frames it drew, for the tests that check closing a motion
    // frees what opening it made and that a hidden viewport draws nothing (e2e/viewport-resources.spec.ts).
    const { memory, render } = this.renderer.info;
    set('glGeometries', String(memory.geometries));
    set('glTextures', String(memory.textures));
    set('glMaterials', String(liveMaterials()));
    set('glFrames', String(render.frame));
  }

  /** Screen bounding box (left, top, right, bottom in canvas CSS px) of the joints of both skeletons drawn. */
  private poseBox(c: MotionContent): string {
    const { w, h } = this.size;
    const v = new THREE.Vector3();
    let x0 = Infinity,
      y0 = Infinity,
      x1 = -Infinity,
      y1 = -Infinity;
    const poses = c.decoded.group.visible ? [c.sourcePose, c.decodedPose] : [c.sourcePose];
    for (const pose of poses)
      for (let j = 0; j < c.parents.length; j++) {
        v.fromArray(pose.positions, j * 3).project(this.camera);
        const x = ((v.x + 1) / 2) * w;
        const y = ((1 - v.y) / 2) * h;
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
    return [x0, y0, x1, y1].map((n) => Math.round(n)).join(',');
  }

  private placeLabel(): void {
    const c = this.content;
    const sel = sessionStore.getState().selectedJoint;
    if (!c || sel < 0 || sel >= c.parents.length) {
      this.label.style.display = 'none';
      return;
    }
    const v = new THREE.Vector3().fromArray(c.sourcePose.positions, sel * 3).project(this.camera);
    if (v.z > 1 || Math.abs(v.x) > 1.2 || Math.abs(v.y) > 1.2) {
      this.label.style.display = 'none';
      return;
    }
    const { w, h } = this.size;
    const name = c.motion.joints[sel].name;
    const locked =
      lockedJointAt(
        c.motion,
        Math.max(0, Math.min(c.motion.frameCount, Math.floor(sessionStore.getState().playhead))),
      ) === sel;
    const text = locked ? `${name} (locked)` : name;
    if (this.label.textContent !== text) this.label.textContent = text;
    this.label.style.display = 'block';
    this.label.style.transform = `translate(${Math.round(((v.x + 1) / 2) * w + 10)}px, ${Math.round(((1 - v.y) / 2) * h - 8)}px)`;
  }

  /** Solves the poses of the frame on screen and styles the skeletons; `withCamera` lets Follow move the camera. */
  private updatePose(withCamera = true): void {
    const c = this.content;
    const prefs = preferencesStore.getState();
    if (!c) {
      this.lockMarker.visible = false;
      this.selectedMarker.visible = false;
      return;
    }
    const m = c.motion;
    const frame = Math.max(0, Math.min(m.frameCount, Math.floor(sessionStore.getState().playhead)));
    solvePose(
      c.parents,
      m.translation.subarray(frame * 4, frame * 4 + 3),
      sourceRotation(m, frame),
      sourceOffset(m, frame),
      c.sourcePose,
    );
    c.source.update(c.sourcePose.positions);

    const result = compressionStore.getState().result;
    const mt3 = result?.mt3 ?? null;
    c.decoded.group.visible = !!mt3 && mt3.rotations.length === c.parents.length;
    if (mt3 && c.decoded.group.visible) {
      this.solveDecoded(mt3, m, frame, c);
      c.decoded.update(c.decodedPose.positions);
      // Each decoded joint in the colour of its error against the tolerance at this frame.
      const ratios = jointErrorRatios(result!.channels, c.parents.length, frame);
      this.errorClasses = Array.from(ratios, classifyError);
      c.decoded.setJointColors((j) => ERROR_COLORS[this.errorClasses[j]]);
      // With the decoded skeleton on top, the source is a ghost behind it (or hidden).
      c.source.group.visible = prefs.showGhost;
      c.source.setStyle(COLORS.ghost, 0.35, 0.3);
    } else {
      this.errorClasses = [];
      c.decoded.setJointColors(() => DECODED_COLOR);
      c.source.group.visible = true;
      c.source.setStyle(COLORS.source, 0.95);
    }
    if (withCamera) this.follow(c);

    c.onionShown = prefs.showOnionSkin ? onionFrames(frame, m.frameCount, ONION_COUNT, onionStep(m.fps)) : [];
    c.onion.forEach((o, i) => {
      const f = c.onionShown[i];
      o.group.visible = f !== undefined;
      if (f === undefined) return;
      solvePose(
        c.parents,
        m.translation.subarray(f * 4, f * 4 + 3),
        sourceRotation(m, f),
        sourceOffset(m, f),
        c.onionPose,
      );
      o.update(c.onionPose.positions);
      // fainter with distance from the playhead; cool before, warm-green after
      const rank = Math.abs(f - frame) / onionStep(m.fps);
      o.setStyle(f < frame ? COLORS.onionBefore : COLORS.onionAfter, 0.5 / rank, 0);
    });

    c.trajectory.visible = prefs.showTrajectory;
    if (this.traceLine) this.traceLine.visible = prefs.showTrace;
    if (this.traceKeys) this.traceKeys.visible = prefs.showTrace;

    const locked = lockedJointAt(m, frame);
    this.lockMarker.visible = locked >= 0;
    if (locked >= 0) this.lockMarker.position.fromArray(c.sourcePose.positions, locked * 3);
    const sel = sessionStore.getState().selectedJoint;
    this.selectedMarker.visible = sel >= 0 && sel < c.parents.length;
    if (this.selectedMarker.visible) this.selectedMarker.position.fromArray(c.sourcePose.positions, sel * 3);
  }

  private solveDecoded(mt3: Mt3Motion, m: Motion, frame: number, c: MotionContent): void {
    const d = decodeResult(mt3);
    samplePositionTrack(d.root, frame, this.root);
    solvePose(
      c.parents,
      this.root,
      (j, out) => {
        sampleRotationTrack(d.rotations[j], frame, this.q);
        out.set(this.q);
      },
      (j, out) => {
        if (d.offsets) {
          samplePositionTrack(d.offsets[j], frame, this.q);
          out[0] = this.q[0];
          out[1] = this.q[1];
          out[2] = this.q[2];
        } else {
          // Without offset tracks the runtime keeps the model's rest offsets: frame 0 of the source.
          out[0] = m.offset[j * 4];
          out[1] = m.offset[j * 4 + 1];
          out[2] = m.offset[j * 4 + 2];
        }
      },
      c.decodedPose,
    );
  }

  private disposeContent(): void {
    const c = this.content;
    if (!c) return;
    this.scene.remove(c.source.group, c.decoded.group, ...c.onion.map((o) => o.group));
    c.source.dispose();
    c.decoded.dispose();
    for (const o of c.onion) o.dispose();
    disposeDrawables(c.trajectory);
    this.content = null;
  }

  dispose(): void {
    cancelAnimationFrame(this.raf);
    this.raf = 0;
    this.disposed = true;
    for (const u of this.unsubscribers) u();
    this.resizeObserver.disconnect();
    this.disposeContent();
    this.disposeTrace();
    this.disposeGrid();
    disposeDrawables(this.lockMarker, this.selectedMarker);
    this.controls.dispose();
    this.renderer.dispose();
    // Hands the WebGL context back now rather than at garbage collection: a page holds only a few at once.
    this.renderer.forceContextLoss();
    this.renderer.domElement.remove();
    this.label.remove();
  }
}
