// Today: reminders whose time has come (with Dismiss), news from the
// person's watchers (what someone else changed on a watched record, with
// Seen), then the work that is due, overdue first, then due today (each task
// can be completed here or opened in the task list), then the person's desk
// lists (desk.js). A reminder coming due while the app is open shows up at
// its time, and the sidebar's Today link counts what is waiting.

import {findRecord, records, spaceTasks, state, subscribe} from '../state.js';
import {deskSection} from './desk.js';
import {byTestId, fill, formatDate, h, keepFocus, recordTitle, statusLabel, today} from '../util.js';
import {advanceStatus, nextStatus} from './tasks.js';

const body = byTestId('today-body');
// A timer longer than this is set again when it ends (browsers cap delays
// near 24.8 days, and the clock may be changed meanwhile).
const kMaxTimerMs = 60 * 60 * 1000;
let ctx = null;
let timer = null;
let message = '';

const timeFormat = new Intl.DateTimeFormat(undefined, {
  month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit',
});

// Reminders are the space owner's own (spec 002 §2), so a shared space's
// reminders are not someone else's to be reminded of.
function ownSpace() {
  const space = state.spaces.find((s) => s.id === state.space);
  return !space || space.role === 'owner';
}

const waiting = (now = Date.now()) => (ownSpace() ? records('reminder') : [])
  .filter((r) => !r.dismissed && r.at <= now)
  .sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));

async function dismiss(reminder) {
  try {
    await ctx.rpc('mutate', {name: 'reminder.update',
                             args: {id: reminder.id, fields: {dismissed: 1}, base: {dismissed: 0}}});
    message = '';
  } catch (e) {
    message = `Could not dismiss “${reminder.text}”: ${e.message}`;
    render();
  }
}

function reminderItem(reminder) {
  const about = reminder.item ? findRecord(reminder.item) : null;
  return h('li', {class: 'today-item', dataset: {testid: 'today-reminder', id: reminder.id}},
    h('span', {class: 'reminder-text'}, reminder.text),
    h('time', {class: 'due', datetime: new Date(reminder.at).toISOString()},
      timeFormat.format(new Date(reminder.at))),
    about
      ? h('a', {href: '#', class: 'title-link',
                onclick: (e) => { e.preventDefault(); ctx.openRecord(about.kind, about.id); }},
        recordTitle(about))
      : null,
    h('button', {type: 'button', dataset: {testid: 'reminder-dismiss'},
                 'aria-label': `Dismiss reminder: ${reminder.text}`,
                 onclick: () => dismiss(reminder)}, 'Dismiss'));
}

// Watchers with news (core/reminders/watcher_news.h), newest first.
const news = () => (ownSpace() ? records('watcher') : [])
  .filter((w) => w.changes > 0)
  .sort((a, b) => b.changed_at - a.changed_at || a.id.localeCompare(b.id));

// The watched record, live or in Trash; null when this device has neither.
const watched = (watcher) =>
  findRecord(watcher.target) ?? state.trash.find((r) => r.id === watcher.target) ?? null;

async function seen(watcher, title) {
  try {
    // Through the news shown: newer news that arrives meanwhile stays.
    await ctx.rpc('mutate', {name: 'watcher.seen',
                             args: {id: watcher.id, through: watcher.changed_at}});
    message = '';
  } catch (e) {
    message = `Could not mark the news on “${title}” as seen: ${e.message}`;
    render();
  }
}

function newsItem(watcher) {
  const about = watched(watcher);
  const title = about ? recordTitle(about) : 'a record no longer here';
  return h('li', {class: 'today-item', dataset: {testid: 'news-item', id: watcher.id}},
    about && !about.deleted
      ? h('a', {href: '#', class: 'title-link',
                onclick: (e) => { e.preventDefault(); ctx.openRecord(about.kind, about.id); }},
        title)
      : h('span', {class: 'title-link'}, title),
    h('span', {class: 'news-text', dataset: {testid: 'news-text'}}, watcher.last_change),
    watcher.changes > 1 ? h('span', {class: 'badge'}, `${watcher.changes} changes`) : null,
    h('time', {class: 'due', datetime: new Date(watcher.changed_at).toISOString()},
      timeFormat.format(new Date(watcher.changed_at))),
    h('button', {type: 'button', dataset: {testid: 'news-seen'},
                 'aria-label': `Mark the news on ${title} as seen`,
                 onclick: () => seen(watcher, title)}, 'Seen'));
}

function item(task) {
  const next = nextStatus(task.status);
  return h('li', {class: 'today-item', dataset: {testid: 'today-item', id: task.id, status: task.status}},
    h('button', {type: 'button', class: 'status', dataset: {testid: 'today-status'},
                 'aria-label': `Status of ${task.title}: ${statusLabel(task.status)}. Change to ${next.label}`,
                 onclick: () => advanceStatus(task)},
      statusLabel(task.status)),
    h('a', {href: `#/tasks/${encodeURIComponent(task.id)}`, class: 'title-link'}, task.title),
    h('span', {class: 'due', dataset: {overdue: task.due < today() ? 'yes' : 'no'}},
      task.due < today() ? `Overdue · ${formatDate(task.due)}` : 'Due today'),
    task.priority && task.priority !== 'none'
      ? h('span', {class: 'badge priority', dataset: {priority: task.priority}}, task.priority) : null);
}

function group(title, testid, entries, draw) {
  if (!entries.length) return null;
  return h('section', {class: 'today-group', dataset: {testid}},
    h('h3', {}, `${title} (${entries.length})`),
    h('ul', {class: 'today-list'}, entries.map(draw)));
}

// Wakes the page at the next reminder's time: it then shows, and counts.
function schedule() {
  clearTimeout(timer);
  const now = Date.now();
  const next = records('reminder').filter((r) => !r.dismissed && r.at > now)
    .reduce((soonest, r) => Math.min(soonest, r.at), Infinity);
  if (next === Infinity) return;
  timer = setTimeout(() => {
    countWaiting();
    if (!byTestId('view-today').hidden) render();
    schedule();
  }, Math.min(next - now + 50, kMaxTimerMs));
}

function countWaiting() {
  const link = byTestId('nav-today');
  const count = waiting().length + news().length;
  let badge = link.querySelector('.count');
  if (!count) {
    badge?.remove();
    return;
  }
  if (!badge) {
    badge = h('span', {class: 'count', dataset: {testid: 'today-count'}});
    link.append(' ', badge);
  }
  badge.textContent = String(count);
  badge.setAttribute('aria-label', `${count} waiting: reminders and watched changes`);
}

// Adding a line re-renders from desk.js, and the line's input keeps the
// focus for the next line.
export function render() {
  keepFocus(draw);
}

function draw() {
  const now = today();
  const open = spaceTasks().filter((t) => t.due && t.status !== 'done' && t.due <= now)
    .sort((a, b) => a.due.localeCompare(b.due) || a.title.localeCompare(b.title));
  const overdue = open.filter((t) => t.due < now);
  const dueToday = open.filter((t) => t.due === now);
  const reminders = waiting();
  const watchedNews = news();
  fill(body,
    message ? h('p', {class: 'note', role: 'status'}, message) : null,
    group('Reminders', 'today-reminders', reminders, reminderItem),
    group('Watched changes', 'today-news', watchedNews, newsItem),
    group('Overdue', 'today-overdue', overdue, item),
    group('Due today', 'today-due', dueToday, item),
    open.length || reminders.length || watchedNews.length ? null : h('p', {class: 'empty', dataset: {testid: 'today-empty'}},
      state.listed && !state.partial ? 'Nothing due today. Enjoy the calm.' : 'Loading…'),
    // Desk lists are the space owner's own, as reminders.
    ownSpace() ? deskSection(render) : null);
}

export function init(c) {
  ctx = c;
  subscribe((what) => {
    if (what === 'data' || what === 'space') {
      countWaiting();
      schedule();
    }
  });
  // This view's module arrives after the first screen (app.js), when the
  // data it counts is usually read already: count it now.
  countWaiting();
  schedule();
}
