// Keyboard shortcuts: q or n adds a task, / or Ctrl-K opens the search,
// f filters the task list, ? lists the shortcuts, Escape closes that list
// (the dialog's own).
// Letters are taken only when the person is not typing somewhere, so they
// never eat a key meant for an input.

import * as search from './search.js';
import {byTestId} from './util.js';
import {focusFilter, focusNewTask} from './views/tasks.js';

const dialog = byTestId('shortcuts');
const searchDialog = byTestId('search');

const isTyping = (target) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || target.closest('input, textarea, select') !== null);

// Opens the task list, then runs `then`: a hidden input takes no focus, so
// a change of view waits for the router (app.js's hashchange listener,
// added before this one).
function showTasks(then) {
  if (!byTestId('view-tasks').hidden) {
    then();
    return;
  }
  window.addEventListener('hashchange', then, {once: true});
  location.hash = '#/tasks';
}

export function init(ctx) {
  search.init(ctx);
  document.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.altKey || dialog.open) return;
    if ((e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === 'k') {
      e.preventDefault();
      search.show();
      return;
    }
    if (searchDialog.open) return;
    if (e.ctrlKey || e.metaKey || isTyping(e.target)) return;
    if (e.key === 'q' || e.key === 'n') {
      e.preventDefault();
      showTasks(focusNewTask);
    } else if (e.key === '/') {
      e.preventDefault();
      search.show();
    } else if (e.key === 'f') {
      e.preventDefault();
      showTasks(focusFilter);
    } else if (e.key === '?') {
      e.preventDefault();
      dialog.showModal();
    }
  });
}
