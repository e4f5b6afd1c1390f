// Trash: soft-deleted records of every kind, newest first, each with
// Restore (`<kind>.restore {id}`).

import {rpc} from '../rpc.js';
import {inSpace, state} from '../state.js';
import {byTestId, h, recordTitle} from '../util.js';

const body = byTestId('trash-body');
const kKindNames = {task: 'Task', page: 'Page', board: 'Board', card: 'Card', project: 'Project',
                    person: 'Person', person_identity: 'Address', desk_list: 'Desk list',
                    desk_list_item: 'Line', reminder: 'Reminder'};
let message = '';

async function restore(record) {
  try {
    await rpc('mutate', {name: `${record.kind}.restore`, args: {id: record.id}});
    message = `Restored “${recordTitle(record)}”.`;
  } catch (e) {
    message = `Could not restore “${recordTitle(record)}”: ${e.message}`;
  }
  render();
}

export function render() {
  const list = state.trash.filter(inSpace);
  body.replaceChildren(
    h('p', {class: 'note', role: 'status', dataset: {testid: 'trash-message'}}, message),
    list.length
      ? h('ul', {class: 'trash-list', dataset: {testid: 'trash-list'}}, list.map((r) =>
        h('li', {class: 'trash-item', dataset: {testid: 'trash-item', id: r.id, kind: r.kind}},
          h('span', {class: 'badge'}, kKindNames[r.kind] ?? r.kind),
          h('span', {class: 'trash-title'}, recordTitle(r)),
          h('button', {type: 'button', dataset: {testid: 'trash-restore'},
                       'aria-label': `Restore ${recordTitle(r)}`, onclick: () => restore(r)}, 'Restore'))))
      : h('p', {class: 'empty', dataset: {testid: 'trash-empty'}}, 'Trash is empty.'));
}
