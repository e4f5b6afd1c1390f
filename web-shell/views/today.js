// Today: the work that is due, overdue first, then due today; each can be
// completed here or opened in the task list.

import {spaceTasks, state} from '../state.js';
import {byTestId, formatDate, h, statusLabel, today} from '../util.js';
import {nextStatus, updateTask} from './tasks.js';

const body = byTestId('today-body');
let ctx = null;

function item(task) {
  const next = nextStatus(task.status);
  return h('li', {class: 'today-item', dataset: {testid: 'today-item', id: task.id, status: task.status}},
    h('button', {type: 'button', class: 'status', dataset: {testid: 'today-status'},
                 'aria-label': `Status of ${task.title}: ${statusLabel(task.status)}. Change to ${next.label}`,
                 onclick: () => updateTask(task, {status: next.value}, {status: task.status})},
      statusLabel(task.status)),
    h('a', {href: `#/tasks/${encodeURIComponent(task.id)}`, class: 'title-link'}, task.title),
    h('span', {class: 'due', dataset: {overdue: task.due < today() ? 'yes' : 'no'}},
      task.due < today() ? `Overdue · ${formatDate(task.due)}` : 'Due today'),
    task.priority && task.priority !== 'none'
      ? h('span', {class: 'badge priority', dataset: {priority: task.priority}}, task.priority) : null);
}

function group(title, testid, tasks) {
  if (!tasks.length) return null;
  return h('section', {class: 'today-group', dataset: {testid}},
    h('h3', {}, `${title} (${tasks.length})`),
    h('ul', {class: 'today-list'}, tasks.map(item)));
}

export function render() {
  const now = today();
  const open = spaceTasks().filter((t) => t.due && t.status !== 'done' && t.due <= now)
    .sort((a, b) => a.due.localeCompare(b.due) || a.title.localeCompare(b.title));
  const overdue = open.filter((t) => t.due < now);
  const dueToday = open.filter((t) => t.due === now);
  body.replaceChildren(
    group('Overdue', 'today-overdue', overdue),
    group('Due today', 'today-due', dueToday),
    open.length ? null : h('p', {class: 'empty', dataset: {testid: 'today-empty'}},
      state.listed ? 'Nothing due today. Enjoy the calm.' : 'Loading…'));
}

export function init(c) {
  ctx = c;
}
