// A board's columns and cards, drawn from a board model (views/boards.js
// makes one for the task board and one for each custom board):
//
//   {id, custom, columns: [{id, title}], cards(columnId) -> [{id, taskId?,
//    title}], move(card, columnId), remove?(card), add?(column, {task}|{note}),
//    onBoard?(taskId), columnAction?(column, action, value)}
//
// Every control that holds what a person is typing or where they are carries
// a data-key unique on the board, so the view can carry values, carets, open
// menus and the focus across the re-render a sync causes.

import {maxChars, spaceTasks, state} from '../state.js';
import {h} from '../util.js';

// Tasks a search box offers at once: enough to pick from, few enough to read
// (our choice, not the core's).
export const kMaxMatches = 8;

function cardNode(model, card, column) {
  const move = h('select', {class: 'card-move', dataset: {testid: 'card-move', key: `move:${card.id}`},
                            'aria-label': `Move “${card.title}” to column`},
                 model.columns.map((c) => h('option', {value: c.id, selected: c.id === column.id},
                                            c.title)));
  move.addEventListener('change', () => model.move(card, move.value));
  const data = {testid: 'board-card', id: card.id};
  if (card.taskId) data.taskId = card.taskId;  // What the assistant's hub_read_surface reads.
  const li = h('li', {class: 'board-card', draggable: 'true', dataset: data},
    card.taskId
      ? h('a', {href: `#/tasks/${encodeURIComponent(card.taskId)}`, class: 'card-title'}, card.title)
      : h('span', {class: 'card-title'}, card.title),
    h('div', {class: 'card-actions'}, move,
      model.remove && h('button', {type: 'button', class: 'card-remove',
                                   dataset: {testid: 'card-remove', key: `remove:${card.id}`},
                                   'aria-label': `Take “${card.title}” off the board`,
                                   onclick: () => model.remove(card)}, '✕')));
  li.addEventListener('dragstart', (e) => {
    e.dataTransfer.setData('text/plain', card.id);
    e.dataTransfer.effectAllowed = 'move';
    li.classList.add('dragging');
  });
  li.addEventListener('dragend', () => li.classList.remove('dragging'));
  return li;
}

// The tasks not on the board whose title holds `query`, open ones first.
function matchingTasks(model, query) {
  const q = query.trim().toLocaleLowerCase();
  if (!q) return [];
  const found = spaceTasks().filter((t) => !model.onBoard(t.id) &&
                                           t.title.toLocaleLowerCase().includes(q));
  found.sort((a, b) => (a.status === 'done') - (b.status === 'done'));
  return found.slice(0, kMaxMatches);
}

// A search box for a task to add, as a combobox: the matching tasks show
// below it (arrow keys or a click pick one); Enter without a pick adds the
// text as a note card.
function addForm(model, column, index) {
  const listId = `card-matches-${model.id}-${index}`;
  const input = h('input', {role: 'combobox', 'aria-autocomplete': 'list', 'aria-expanded': 'false',
                            'aria-controls': listId, autocomplete: 'off',
                            // What is typed becomes a note card unless a task is picked.
                            maxLength: maxChars('card', 'note'),
                            placeholder: 'Add a task or a note',
                            'aria-label': `Add a task or a note to ${column.title}`,
                            dataset: {testid: 'card-add-input', key: `add:${column.id}`}});
  const list = h('ul', {id: listId, role: 'listbox', class: 'card-matches', hidden: true,
                        'aria-label': `Tasks to add to ${column.title}`,
                        dataset: {testid: 'card-add-matches'}});
  let matches = [];
  let active = -1;
  const close = () => {
    matches = [];
    active = -1;
    list.hidden = true;
    list.replaceChildren();
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
  };
  const add = (what) => {
    input.value = '';
    close();
    model.add(column, what);
  };
  const show = () => {
    matches = matchingTasks(model, input.value);
    active = Math.min(active, matches.length - 1);
    if (!matches.length) return close();
    list.replaceChildren(...matches.map((t, i) => h('li', {
      id: `${listId}-${i}`, role: 'option', class: 'card-match', 'aria-selected': String(i === active),
      dataset: {testid: 'card-add-match', taskId: t.id},
      // Keeps the focus in the box, so the click below still sees the list.
      onmousedown: (e) => e.preventDefault(),
      onclick: () => add({task: t.id}),
    }, t.title)));
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
    if (active >= 0) input.setAttribute('aria-activedescendant', `${listId}-${active}`);
    else input.removeAttribute('aria-activedescendant');
  };
  input.addEventListener('input', () => {
    active = -1;
    show();
  });
  input.addEventListener('keydown', (e) => {
    if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && matches.length) {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      active = (active + step + matches.length + 1) % (matches.length + 1);
      if (active === matches.length) active = -1;  // Back in the box: Enter adds a note.
      show();
    } else if (e.key === 'Escape' && !list.hidden) {
      e.preventDefault();
      close();
    }
  });
  input.addEventListener('blur', close);
  input.refreshMatches = show;  // A re-render that keeps the typed text shows its matches again.
  const form = h('form', {class: 'card-add', dataset: {testid: 'card-add'}}, input, list,
                 h('button', {type: 'submit', dataset: {testid: 'card-add-button'}}, 'Add'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (active >= 0 && matches[active]) return add({task: matches[active].id});
    const note = input.value.trim();
    if (note) add({note});
  });
  return form;
}

// A custom column's menu: rename, move left or right, delete.
function columnMenu(model, column, index) {
  const name = h('input', {value: column.title, maxLength: state.limits?.maxBoardColumnTitleChars,
                           'aria-label': `New name for ${column.title}`,
                           dataset: {testid: 'column-rename-input', key: `rename:${column.id}`}});
  const rename = h('form', {class: 'inline-form'}, name,
                   h('button', {type: 'submit', dataset: {testid: 'column-rename-save'}}, 'Rename'));
  rename.addEventListener('submit', (e) => {
    e.preventDefault();
    model.columnAction(column, 'rename', name.value.trim());
  });
  const act = (action, label, testid, disabled = false) =>
    h('button', {type: 'button', disabled, dataset: {testid, key: `${testid}:${column.id}`},
                 onclick: () => model.columnAction(column, action)}, label);
  return h('details', {class: 'column-menu', dataset: {testid: 'column-menu', key: `menu:${column.id}`}},
    h('summary', {'aria-label': `Options for the column ${column.title}`}, '⋯'),
    h('div', {class: 'menu-body'}, rename,
      act('left', 'Move left', 'column-move-left', index === 0),
      act('right', 'Move right', 'column-move-right', index === model.columns.length - 1),
      act('delete', 'Delete column', 'column-delete')));
}

export function columnNode(model, column, index) {
  const cards = model.cards(column.id);
  const section = h('section', {class: 'board-column', 'aria-label': column.title,
                                dataset: {testid: 'board-column', columnId: column.id}},
    h('div', {class: 'column-head'},
      h('h3', {}, column.title, h('span', {class: 'count'}, ` ${cards.length}`)),
      model.custom && columnMenu(model, column, index)),
    h('ol', {class: 'card-list'}, cards.map((card) => cardNode(model, card, column))),
    model.add && addForm(model, column, index));
  section.addEventListener('dragover', (e) => {
    e.preventDefault();
    section.classList.add('drop-target');
  });
  section.addEventListener('dragleave', () => section.classList.remove('drop-target'));
  section.addEventListener('drop', (e) => {
    e.preventDefault();
    section.classList.remove('drop-target');
    const id = e.dataTransfer.getData('text/plain');
    const card = model.columns.flatMap((c) => model.cards(c.id)).find((c) => c.id === id);
    if (card) model.move(card, column.id);
  });
  return section;
}

// The custom board's last column: a box to name a new one.
export function addColumnNode(model) {
  const title = h('input', {maxLength: state.limits?.maxBoardColumnTitleChars, placeholder: 'Column name',
                            'aria-label': 'Name of a new column',
                            dataset: {testid: 'column-add-input', key: 'add-column'}});
  const form = h('form', {class: 'column-add', dataset: {testid: 'column-add'}},
    h('h3', {}, model.columns.length ? 'Another column' : 'First column'),
    model.columns.length ? null
      : h('p', {class: 'note'}, 'Name this board’s columns in the order work moves through them.'),
    title, h('button', {type: 'submit', dataset: {testid: 'column-add-button'}}, 'Add column'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const name = title.value.trim();
    if (!name) return;
    title.value = '';  // The focus stays, for the next column's name.
    model.columnAction(null, 'add', name);
  });
  return form;
}
