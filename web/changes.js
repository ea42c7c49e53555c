// Applying a change set to a screen, as README's apply contract states it (the same rules as Swift's
// `Changeset.apply(to:)`). Pure: takes the screen the page has ({sections, emptyState}) and a `changes` object, and
// returns the new screen; throws ChangeMismatch when the change set does not fit (the page then reloads the screen).
//
// Coordinates: sections are named by id and index; items and supplementaries by the id of their section and their
// index in it. Deletes and move sources use OLD indices (in the screen before); inserts, move destinations and
// updates use NEW ones (in the screen after). Per list: the elements placed by index (inserts, move destinations)
// take their positions, the ones that stayed keep their relative order and fill the other positions, then updates
// replace content in place. Stages: sections, then the items and supplementaries of kept sections, then section
// updates, then the whole-screen empty state.

export class ChangeMismatch extends Error {
  constructor(what) {
    super(`the change set does not fit the screen: ${what}`);
    this.name = "ChangeMismatch";
  }
}

const HOLE = Symbol("hole");

/** Puts `placed` ([index, element]) at their indices and `staying`, in order, in the positions left. */
function fill(placed, staying, what) {
  const count = placed.length + staying.length;
  const slots = new Array(count).fill(HOLE);
  for (const [index, element] of placed) {
    if (!Number.isInteger(index) || index < 0 || index >= count || slots[index] !== HOLE) {
      throw new ChangeMismatch(`${what}: position ${index} is out of range or taken twice`);
    }
    slots[index] = element;
  }
  let next = 0;
  for (let index = 0; index < count; index += 1) {
    if (slots[index] === HOLE) slots[index] = staying[next++];
  }
  return slots;
}

/** Indices of `list` named by `entries` (each with `id` and an index under `key`), checked against the list. */
function leavingIndices(list, entries, key, what, into = new Set()) {
  for (const entry of entries) {
    const index = entry[key];
    if (!Number.isInteger(index) || index < 0 || index >= list.length || list[index].id !== entry.id) {
      throw new ChangeMismatch(`${what} "${entry.id}" at ${index}`);
    }
    if (into.has(index)) throw new ChangeMismatch(`${what} "${entry.id}" at ${index} twice`);
    into.add(index);
  }
  return into;
}

const sameSupplementary = (a, b) => a.kind === b.kind && a.id === b.id;

/**
 * The screen after `changes`. `screen` is {sections, emptyState?} as the document has it (sections with their
 * items and shown supplementaries); it is not modified.
 */
export function applyChanges(screen, changes) {
  const before = screen.sections;
  const sectionChanges = changes.sections;
  const itemChanges = changes.items;
  const supplementaryChanges = changes.supplementaries;

  // 1. Sections: deletes and move sources leave by old index; inserts and move destinations are placed by new index.
  const leaving = leavingIndices(before, sectionChanges.deleted, "index", "section delete");
  leavingIndices(before, sectionChanges.moved, "from", "section move", leaving);
  const placed = [
    ...sectionChanges.inserted.map((insert) => {
      if (!insert.section || insert.section.id !== insert.id) {
        throw new ChangeMismatch(`section insert "${insert.id}" without its content`);
      }
      return [insert.index, { inserted: insert.section }];
    }),
    ...sectionChanges.moved.map((move) => [move.to, { from: move.from }]),
  ];
  const staying = before.map((_, index) => index).filter((index) => !leaving.has(index)).map((from) => ({ from }));
  const slots = fill(placed, staying, "sections");
  const oldIndexById = new Map(before.map((section, index) => [section.id, index]));
  const keptIds = new Set(slots.filter((slot) => !slot.inserted).map((slot) => before[slot.from].id));

  // 2. Items of kept sections.
  const removedItems = new Map(); // old section id -> Set of old indices
  const removeItem = (sectionId, index, id, what) => {
    const oldIndex = oldIndexById.get(sectionId);
    if (oldIndex === undefined || !keptIds.has(sectionId)) {
      throw new ChangeMismatch(`${what} "${id}" in section "${sectionId}"`);
    }
    const items = before[oldIndex].items;
    if (!Number.isInteger(index) || index < 0 || index >= items.length || items[index].id !== id) {
      throw new ChangeMismatch(`${what} "${id}" at ${sectionId}.${index}`);
    }
    const set = removedItems.get(sectionId) ?? new Set();
    if (set.has(index)) throw new ChangeMismatch(`${what} "${id}" at ${sectionId}.${index} twice`);
    set.add(index);
    removedItems.set(sectionId, set);
    return items[index];
  };
  const placedItems = new Map(); // new section id -> [[index, item]]
  const placeItem = (sectionId, index, item, what) => {
    if (!keptIds.has(sectionId)) throw new ChangeMismatch(`${what} "${item.id}" in section "${sectionId}"`);
    const list = placedItems.get(sectionId) ?? [];
    list.push([index, item]);
    placedItems.set(sectionId, list);
  };
  for (const remove of itemChanges.deleted) removeItem(remove.section, remove.index, remove.id, "item delete");
  for (const move of itemChanges.moved) {
    const item = removeItem(move.fromSection, move.from, move.id, "item move");
    placeItem(move.toSection, move.to, item, "item move");
  }
  for (const insert of itemChanges.inserted) {
    if (!insert.item || insert.item.id !== insert.id) throw new ChangeMismatch(`item insert "${insert.id}"`);
    placeItem(insert.section, insert.index, insert.item, "item insert");
  }

  // 3. Supplementaries of kept sections, by the same rules, on each section's shown list.
  const removedSupplementaries = new Map();
  for (const remove of supplementaryChanges.deleted) {
    const oldIndex = oldIndexById.get(remove.section);
    const shown = oldIndex === undefined ? undefined : before[oldIndex].supplementaries;
    if (!shown || !keptIds.has(remove.section) || !shown[remove.index] || !sameSupplementary(shown[remove.index], remove)) {
      throw new ChangeMismatch(`supplementary delete "${remove.id}" at ${remove.section}.${remove.index}`);
    }
    const set = removedSupplementaries.get(remove.section) ?? new Set();
    if (set.has(remove.index)) throw new ChangeMismatch(`supplementary delete "${remove.id}" twice`);
    set.add(remove.index);
    removedSupplementaries.set(remove.section, set);
  }
  const placedSupplementaries = new Map();
  for (const insert of supplementaryChanges.inserted) {
    if (!keptIds.has(insert.section) || !insert.supplementary) {
      throw new ChangeMismatch(`supplementary insert "${insert.id}" in "${insert.section}"`);
    }
    const list = placedSupplementaries.get(insert.section) ?? [];
    list.push([insert.index, insert.supplementary]);
    placedSupplementaries.set(insert.section, list);
  }

  const after = slots.map((slot, newIndex) => {
    if (slot.inserted) return slot.inserted;
    const old = before[slot.from];
    const gone = removedItems.get(old.id) ?? new Set();
    const items = fill(
      placedItems.get(old.id) ?? [],
      old.items.filter((_, index) => !gone.has(index)),
      `items of section ${newIndex}`,
    );
    const goneSupplementaries = removedSupplementaries.get(old.id) ?? new Set();
    const supplementaries = fill(
      placedSupplementaries.get(old.id) ?? [],
      old.supplementaries.filter((_, index) => !goneSupplementaries.has(index)),
      `supplementaries of section ${newIndex}`,
    );
    return { ...old, items, supplementaries };
  });

  // Updates replace content in place, at new indices.
  const newIndexById = new Map(after.map((section, index) => [section.id, index]));
  for (const update of itemChanges.updated) {
    const section = after[newIndexById.get(update.section)];
    if (!section || !keptIds.has(update.section) || !section.items[update.index] ||
        section.items[update.index].id !== update.id || !update.item || update.item.id !== update.id) {
      throw new ChangeMismatch(`item update "${update.id}" at ${update.section}.${update.index}`);
    }
    section.items[update.index] = update.item;
  }
  for (const update of supplementaryChanges.updated) {
    const section = after[newIndexById.get(update.section)];
    const shown = section?.supplementaries[update.index];
    if (!shown || !keptIds.has(update.section) || !sameSupplementary(shown, update) || !update.supplementary) {
      throw new ChangeMismatch(`supplementary update "${update.id}" at ${update.section}.${update.index}`);
    }
    section.supplementaries[update.index] = update.supplementary;
  }
  for (const update of sectionChanges.updated) {
    const section = after[update.index];
    if (!section || section.id !== update.id || !update.layout) {
      throw new ChangeMismatch(`section update "${update.id}" at ${update.index}`);
    }
    after[update.index] = { ...section, layout: update.layout, whenEmpty: update.whenEmpty };
  }

  // 4. The whole-screen empty state.
  let emptyState = screen.emptyState ?? null;
  const change = changes.emptyState;
  if (change) {
    switch (change.change) {
      case "inserted":
        if (emptyState) throw new ChangeMismatch("screen empty state already shown");
        emptyState = change.supplementary;
        break;
      case "deleted":
        if (!emptyState) throw new ChangeMismatch("no screen empty state to delete");
        emptyState = null;
        break;
      case "updated":
      case "replaced":
        if (!emptyState) throw new ChangeMismatch("no screen empty state to change");
        emptyState = change.supplementary;
        break;
      default:
        throw new ChangeMismatch(`screen empty state change "${change.change}"`);
    }
  }
  return { sections: after, emptyState };
}
