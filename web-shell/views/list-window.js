// Keeps a long list's DOM to the entries near the screen.
//
// A list of thousands of rows costs its page at every step when every row is
// in the document: building and laying them out, and tearing them down when
// the page goes (a reload of 50,000 rows spent 2 to 4 s in the old page's
// unload). The owner still keeps one element per entry, patched in place;
// this only decides which of them are attached. A list of up to kAllBelow
// entries has them all attached, hidden ones included, as before; a longer
// one with up to kAllBelow shown has only those. Past that the list holds the
// shown entries around the screen between two spacers as tall as the entries
// they stand for, and moves that window as the page scrolls. The focused
// entry always stays attached and is never moved, so an edit keeps its input.

import {h} from '../util.js';

// Lists of up to this many entries, or shown entries, are attached whole.
export const kAllBelow = 300;
// Entries attached beyond each edge of the screen.
const kOverscan = 40;
// Height assumed for an entry until one has been measured, in px.
const kGuessHeight = 40;

export class ListWindow {
  // `list`: the <ul>; `place(list, nodes)`: puts exactly `nodes` in it, in order.
  constructor(list, place) {
    this.list = list;
    this.place = place;
    this.shown = null;    // The entries not hidden, when windowed; else null.
    this.range = [0, 0];  // The attached part of `shown`.
    this.height = kGuessHeight;
    this.measured = false;
    this.top = h('li', {class: 'list-spacer', 'aria-hidden': 'true'});
    this.bottom = h('li', {class: 'list-spacer', 'aria-hidden': 'true'});
    let queued = false;
    const onScroll = () => {
      if (queued || !this.shown) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        this.follow();
      });
    };
    window.addEventListener('scroll', onScroll, {passive: true});
    window.addEventListener('resize', onScroll, {passive: true});
  }

  // Shows `nodes` (every entry, hidden ones included, in order).
  show(nodes) {
    if (nodes.length <= kAllBelow) {
      this.shown = null;
      this.place(this.list, nodes);
      return;
    }
    const shown = nodes.filter((n) => !n.hidden);
    if (shown.length <= kAllBelow) {
      this.shown = null;
      this.attach(shown);
      return;
    }
    this.shown = shown;
    this.render(this.wanted());
  }

  // Makes `nodes` the list's children. Those leaving go first: `place` then
  // only adds at the edges and never moves a kept entry (moving the focused
  // one would blur it).
  attach(nodes) {
    const keep = new Set(nodes);
    for (const child of [...this.list.children]) {
      if (!keep.has(child)) child.remove();
    }
    this.place(this.list, nodes);
  }

  // Attaches `node` (an entry) if it is shown, moving the window to it.
  reveal(node) {
    if (!this.shown) return;
    const i = this.shown.indexOf(node);
    if (i < 0 || (i >= this.range[0] && i < this.range[1])) return;
    const screen = Math.ceil(window.innerHeight / this.height);
    this.render([Math.max(0, i - screen), Math.min(this.shown.length, i + screen)]);
  }

  // The part of `shown` on screen now: [first, end).
  onScreen() {
    const offset = -this.list.getBoundingClientRect().top;
    const first = Math.min(this.shown.length, Math.max(0, Math.floor(offset / this.height)));
    return [first, Math.min(this.shown.length, first + Math.ceil(window.innerHeight / this.height))];
  }

  // The part of `shown` to attach: the screen's, the overscan on each side,
  // and the focused entry.
  wanted() {
    const [first, end] = this.onScreen();
    let a = Math.max(0, first - kOverscan);
    let b = Math.min(this.shown.length, end + kOverscan);
    const focused = this.shown.findIndex((n) => n.contains(document.activeElement));
    if (focused >= 0) {
      a = Math.min(a, focused);
      b = Math.max(b, focused + 1);
    }
    return [a, b];
  }

  // Moves the window once the screen comes within half the overscan of its
  // edge (or past it).
  follow() {
    if (!this.shown) return;
    const [first, end] = this.onScreen();
    const [a, b] = this.range;
    const margin = kOverscan / 2;
    if (a <= Math.max(0, first - margin) && b >= Math.min(this.shown.length, end + margin)) return;
    this.render(this.wanted());
  }

  render([first, end]) {
    this.range = [first, end];
    const part = this.shown.slice(first, end);
    this.attach([this.top, ...part, this.bottom]);
    // One row's height, taken once from a row as it usually is (not one
    // with its details open): a changing estimate would move the spacers
    // under the reader as they scroll.
    if (!this.measured) {
      const plain = part.find((n) => n.classList.contains('task') && !n.querySelector('.task-editor'));
      if (plain?.offsetHeight > 0) {
        this.height = plain.offsetHeight;
        this.measured = true;
      }
    }
    this.top.style.height = `${first * this.height}px`;
    this.bottom.style.height = `${(this.shown.length - end) * this.height}px`;
  }
}
