// The dock's @-menu: typing "@" offers the space's records; picking one puts
// "@Title" in the text and a chip under it, and the message is sent with the
// mentions resolveMentions (the core's resolution, as the server's) keeps.

import {records, spaceTasks, state} from '../state.js';
import {h, recordTitle} from '../util.js';

// Offers the menu shows at once: our choice, enough to pick from.
const kMenuSize = 8;
const kKindLabels = {task: 'Task', page: 'Page', board: 'Board', project: 'Project', person: 'Person'};

// `text` cut to at most `maxBytes` bytes of UTF-8 (the core bounds a
// mention's label in bytes, core/refs/mentions.h), never inside a character.
const encoder = new TextEncoder();
function cutToBytes(text, maxBytes) {
  if (text.length * 3 <= maxBytes) return text;  // A UTF-16 unit is at most 3 bytes.
  return text.slice(0, encoder.encodeInto(text, new Uint8Array(maxBytes)).read);
}

function candidates(query) {
  const maxLabelBytes = state.limits?.maxMentionLabelBytes;
  const q = query.toLowerCase();
  const all = [
    ...spaceTasks().map((t) => ({kind: 'task', id: t.id, label: t.title})),
    ...['page', 'board', 'project', 'person'].flatMap((kind) =>
      records(kind).map((r) => ({kind, id: r.id, label: recordTitle(r)}))),
  ];
  return all.filter((c) => c.label.toLowerCase().includes(q))
    .map((c) => (maxLabelBytes ? {...c, label: cutToBytes(c.label, maxLabelBytes)} : c))
    .sort((a, b) => Number(!a.label.toLowerCase().startsWith(q)) -
                    Number(!b.label.toLowerCase().startsWith(q)))
    .slice(0, kMenuSize);
}

// The "@query" being typed at the caret, or null.
function tokenAt(text, caret) {
  const before = text.slice(0, caret);
  const m = /(?:^|\s)@([^@\n]{0,40})$/.exec(before);
  if (!m) return null;
  return {start: caret - m[1].length - 1, query: m[1]};
}

export class MentionMenu {
  constructor({input, menu, chips}) {
    this.input = input;
    this.menu = menu;
    this.chips = chips;
    this.mentions = [];
    this.items = [];
    this.active = 0;
    this.token = null;
    input.addEventListener('input', () => this.update());
    input.addEventListener('blur', () => setTimeout(() => this.close(), 150));
  }

  get isOpen() {
    return !this.menu.hidden;
  }

  update() {
    const token = tokenAt(this.input.value, this.input.selectionStart);
    this.token = token;
    this.items = token ? candidates(token.query) : [];
    if (!this.items.length) {
      this.close();
      return;
    }
    this.active = 0;
    this.renderMenu();
  }

  renderMenu() {
    this.menu.replaceChildren(...this.items.map((c, i) => h('li', {
      id: `mention-option-${i}`, role: 'option', class: 'mention-option',
      'aria-selected': String(i === this.active), dataset: {testid: 'mention-option', kind: c.kind},
      onmousedown: (e) => {
        e.preventDefault();
        this.pick(i);
      },
    }, h('span', {class: 'badge'}, kKindLabels[c.kind] ?? c.kind), ` ${c.label}`)));
    this.menu.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
    this.input.setAttribute('aria-activedescendant', `mention-option-${this.active}`);
  }

  close() {
    this.menu.hidden = true;
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
  }

  // Arrow keys, Enter/Tab and Escape while the menu is open; true if used.
  handleKey(e) {
    if (!this.isOpen) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const step = e.key === 'ArrowDown' ? 1 : -1;
      this.active = (this.active + step + this.items.length) % this.items.length;
      this.renderMenu();
    } else if (e.key === 'Enter' || e.key === 'Tab') {
      this.pick(this.active);
    } else if (e.key === 'Escape') {
      this.close();
    } else {
      return false;
    }
    e.preventDefault();
    return true;
  }

  pick(i) {
    const c = this.items[i];
    if (!c || !this.token) return;
    const text = this.input.value;
    const end = this.token.start + 1 + this.token.query.length;
    const inserted = `@${c.label} `;
    this.input.value = text.slice(0, this.token.start) + inserted + text.slice(end);
    const caret = this.token.start + inserted.length;
    this.input.setSelectionRange(caret, caret);
    // Past the core's cap the message would be refused: the name stays as
    // typed text instead.
    const full = this.mentions.length >= (state.limits?.maxMentions ?? Infinity);
    if (!full && !this.mentions.some((m) => m.id === c.id)) this.mentions.push(c);
    this.close();
    this.renderChips();
    this.input.focus();
  }

  renderChips() {
    this.chips.replaceChildren(...this.mentions.map((m) => h('span', {
      class: 'chip', dataset: {testid: 'mention-chip', kind: m.kind, id: m.id},
    }, `@${m.label}`, h('button', {
      type: 'button', 'aria-label': `Remove mention ${m.label}`,
      onclick: () => {
        this.mentions = this.mentions.filter((x) => x.id !== m.id);
        this.renderChips();
        this.input.focus();
      },
    }, '×'))));
  }

  // The mentions still named in the text.
  current() {
    return this.mentions.filter((m) => this.input.value.includes(`@${m.label}`));
  }

  clear() {
    this.mentions = [];
    this.renderChips();
    this.close();
  }
}
