// Toasts: one line saying what a delete, a completion or a move just did,
// with Undo where it can be taken back, so nothing disappears silently.
// A toast stays kToastMs, longer while the pointer or the focus is on it;
// a newer toast replaces an older one's place at the top, up to kMaxToasts.

import {byTestId, h} from './util.js';

export const kToastMs = 10000;
const kMaxToasts = 3;

const region = byTestId('toasts');

// Shows `text`; `undo` (optional) is an async function that takes the
// change back. Answers the toast's element.
export function showToast(text, undo = null) {
  const line = h('span', {class: 'toast-text'}, text);
  const toast = h('div', {class: 'toast', dataset: {testid: 'toast'}}, line);
  let timer = null;
  const close = () => {
    clearTimeout(timer);
    toast.remove();
  };
  const wait = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (!toast.matches(':hover, :focus-within')) close();
      else wait();
    }, kToastMs);
  };
  if (undo) {
    const button = h('button', {type: 'button', dataset: {testid: 'toast-undo'}, onclick: async () => {
      button.disabled = true;
      try {
        await undo();
        line.textContent = 'Undone.';
        button.remove();
      } catch (e) {
        line.textContent = `It could not be undone: ${e.message}`;
        button.disabled = false;
      }
      wait();
    }}, 'Undo');
    toast.append(button);
  }
  toast.append(h('button', {type: 'button', class: 'toast-close', 'aria-label': 'Dismiss',
                            dataset: {testid: 'toast-close'}, onclick: close}, '×'));
  region.prepend(toast);
  while (region.children.length > kMaxToasts) region.lastElementChild.remove();
  wait();
  return toast;
}
