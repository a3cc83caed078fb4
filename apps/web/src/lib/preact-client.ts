import { options, type Ref, type RefCallback } from 'preact';

// What `react-dom/client` resolves to on Preact (apps/web/client-runtime.ts): compat's createRoot,
// with React's timing of effects and its autoFocus behaviour added.
export { createRoot, hydrateRoot } from 'preact/compat/client';

/**
 * React runs `useEffect` callbacks and cleanups in a task of its scheduler (a MessageChannel
 * message) right after the commit; Preact waits for the next animation frame or 35 ms of timer.
 * Frames do not come in a hidden tab, and a test's fake clock holds both: the effects that read the
 * session and subscribe to the realtime feed then wait. Here they run as on React.
 */
const effects = new MessageChannel();
let pending: (() => void)[] = [];
effects.port1.onmessage = () => {
  const run = pending;
  pending = [];
  for (const callback of run) callback();
};
options.requestAnimationFrame = (callback) => {
  if (pending.push(callback) === 1) effects.port2.postMessage(null);
};

/**
 * React focuses an element rendered with `autoFocus` once, when it is mounted (the login screen's
 * username, a modal's comment box or confirm button), and writes no attribute. Preact only writes
 * the `autofocus` attribute, which a browser honours on page load, not for an element added later.
 * Here the prop becomes a ref that focuses the element the first time it is attached.
 */
const focused = new WeakSet<Element>();

function focusOnMount(el: Element | null): void {
  if (el instanceof HTMLElement && !focused.has(el)) {
    focused.add(el);
    el.focus();
  }
}

/** One wrapper per ref, so a ref that keeps its identity across renders is not detached and re-attached. */
const wrappers = new WeakMap<object, RefCallback<Element>>();

function withFocus(ref: Ref<Element> | undefined): RefCallback<Element> {
  if (!ref) return focusOnMount;
  let wrapper = wrappers.get(ref);
  if (!wrapper) {
    wrapper = (el) => {
      const cleanup = typeof ref === 'function' ? ref(el) : ((ref.current = el), undefined);
      focusOnMount(el);
      return cleanup;
    };
    wrappers.set(ref, wrapper);
  }
  return wrapper;
}

const previousVNodeHook = options.vnode;
options.vnode = (vnode) => {
  if (typeof vnode.type === 'string' && (vnode.props as { autoFocus?: unknown }).autoFocus) {
    const { autoFocus: _, ...props } = vnode.props as Record<string, unknown>;
    vnode.props = props as typeof vnode.props;
    vnode.ref = withFocus(vnode.ref as Ref<Element> | undefined);
  }
  previousVNodeHook?.(vnode);
};
