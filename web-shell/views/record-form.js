// A form over one record's fields (a project's, a person's) that never loses
// what is typed: it is built once per opened record, a render moves only
// the fields the person has not changed, and Save sends only the changed
// fields, each with the value it was based on. A change made elsewhere to
// another field is kept; one to the same field is a conflict, which keeps
// the typed value and asks before saving over the other.

import {rpc} from '../rpc.js';
import {maxChars} from '../state.js';
import {h} from '../util.js';

// fields: [{name, label, type: 'text'|'email'|'textarea'|'date'|'select',
// options?: [[value, label]], required?, nullable?}] (a nullable field, like
// a date, stores an empty answer as null; a text field's length is the
// core's limit for the kind's field); `say(text)` reports the outcome.
// Answers {root, update(record), dirty(), save()}.
export function recordForm({kind, record, fields, say, testid}) {
  const inputs = {};
  const base = {};
  let conflict = false;
  const stored = (r, f) => r?.[f.name] ?? '';
  const trimmed = (f) => f.type === 'text' || f.type === 'email';
  const valueOf = (f) => (trimmed(f) ? inputs[f.name].value.trim() : inputs[f.name].value);
  const id = (f) => `${kind}-${record.id}-${f.name}`;
  const rows = fields.map((f) => {
    const props = {id: id(f), name: f.name, dataset: {testid: `${testid}-${f.name}`}};
    let input;
    if (f.type === 'textarea') {
      input = h('textarea', {...props, rows: f.rows ?? 4, maxLength: maxChars(kind, f.name)});
    } else if (f.type === 'select') {
      input = h('select', props, f.options.map(([value, label]) => h('option', {value}, label)));
    } else {
      input = h('input', {...props, type: f.type, maxLength: maxChars(kind, f.name),
                          required: f.required});
    }
    inputs[f.name] = input;
    input.value = stored(record, f);
    base[f.name] = input.value;
    return h('div', {class: `field field-${f.name}`}, h('label', {for: input.id}, f.label), input);
  });
  const changed = () => fields.filter((f) => valueOf(f) !== base[f.name]);
  const toValue = (f, v) => ((f.type === 'date' || f.nullable) && v === '' ? null : v);

  async function save() {
    const edits = changed();
    if (!edits.length) {
      say('Saved.');
      return true;
    }
    if (edits.some((f) => f.required && !valueOf(f))) {
      say(`${edits.find((f) => f.required && !valueOf(f)).label} cannot be empty.`);
      return false;
    }
    const args = {id: record.id, fields: {}, base: {}};
    for (const f of edits) {
      args.fields[f.name] = toValue(f, valueOf(f));
      args.base[f.name] = toValue(f, base[f.name]);
    }
    try {
      await rpc('mutate', {name: `${kind}.update`, args});
      for (const f of edits) base[f.name] = valueOf(f);
      conflict = false;
      say('Saved.');
      return true;
    } catch (e) {
      if (e.code === 'SAVE_CONFLICT') {
        // Saving again keeps what was typed over the other change, knowingly.
        for (const f of edits) base[f.name] = stored(record, f);
        conflict = true;
        say('This was changed elsewhere while you edited it: Save again to keep yours.');
      } else {
        say(`Not saved: ${e.message}`);
      }
      return false;
    }
  }

  const root = h('form', {class: 'record-form', dataset: {testid},
                          onsubmit: (e) => { e.preventDefault(); save(); }},
    rows,
    h('div', {class: 'editor-actions'},
      h('button', {type: 'submit', class: 'primary', dataset: {testid: `${testid}-save`}}, 'Save')));

  return {
    root,
    inputs,
    dirty: () => changed().length > 0,
    save,
    // The record as it now stands: fields the person has not changed follow it.
    update(next) {
      record = next;
      if (conflict) return;
      for (const f of fields) {
        const now = stored(next, f);
        if (valueOf(f) === base[f.name] && base[f.name] !== now) {
          inputs[f.name].value = now;
          base[f.name] = now;
        }
      }
    },
  };
}

// An inline "Delete X?" with Delete and Cancel, in place of the button
// that asked; `confirm` runs the delete.
export function confirmLine(question, confirm, cancel, testid) {
  return h('span', {class: 'confirm-line', role: 'group', 'aria-label': question},
    h('span', {role: 'alert'}, question),
    h('button', {type: 'button', class: 'danger', dataset: {testid: `${testid}-confirm`},
                 onclick: confirm}, 'Delete'),
    h('button', {type: 'button', dataset: {testid: `${testid}-cancel`}, onclick: cancel}, 'Cancel'));
}
