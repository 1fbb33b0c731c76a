// Package loader turns a YAML composition into plugin instances of a kernel and keeps them in step
// with later versions of it.
//
// # Format
//
// A composition is a mapping with one key, plugins, whose value is a list of entries:
//
//	plugins:
//	  - id: fs              # optional stable identity
//	    name: fs-local      # catalog module id (required)
//	    config: { cwd: . }  # decoded strictly into the module's NewConfig value
//	  - name: tool-fs
//	    disabled: true      # kept in the list, not loaded
//
// Parsing is strict: an unknown key at the top level or in an entry, a missing name, or a
// disabled that is not a boolean is an error naming the entry (by id, or by position when it has
// none) and the line. Config is decoded by Apply into a fresh Module.NewConfig value with unknown
// fields rejected (*UnknownKeyError, with the line in the source) and then validated
// (kernel.Validator); a module without NewConfig accepts no config. Disabled entries are checked
// the same way, so switching an entry off never hides a mistake in it.
//
// # Ids
//
// An entry without an id gets its name, or name#n for the n-th id-less entry of that name (ids
// already given to other entries are skipped). Generated ids are stable across reloads as long as
// the id-less entries of one name keep their relative order; give an id to entries that may move.
//
// # Reconcile
//
// Loader.Apply makes a running kernel match a composition, by id: new and re-enabled entries load,
// removed and disabled ones dispose (last first), entries whose config changed restart through
// kernel.Fiber.Update, and an entry whose module name changed is disposed and loaded again. Every
// entry is checked (module known, ids unique, config decoded and valid) before anything is
// touched. Apply is transactional: when a load or a restart fails, or a dependent fails because its
// provider arrived or changed, the steps already taken are undone in reverse and the composition
// in force stays the previous one. Removals run before
// loads, so a provider can be swapped for another provider of the same service.
//
// Entry order is composition rank (kernel.Rank), so listeners of earlier entries run first and a
// single-slot waterfall is decided by the first entry that decides it. Ranks are spaced out so
// that inserting or removing entries leaves the others their rank and their running instance; an
// entry moved past a kept neighbour is disposed and loaded again with its new rank.
//
// # Diagnostics
//
// Loader.Status reports each entry's state (active, pending with its missing services, failed with
// its error, disabled); Loader.Audit turns that into the boot check of a host (an *AuditError
// naming every failed or pending entry); Loader.Dump and Dump render a composition with resolved
// ids, the former with each entry's state as a comment on its id line. A dump parses back to the
// same composition.
package loader
