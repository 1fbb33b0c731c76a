// Package txn is the journal of the host provider's multi-file publications (docs/apply_patch.md
// "All or nothing"): it records a change set's plan before anything is staged, marks the moment
// publication starts, and lets the next process that starts on the machine finish (roll forward)
// or undo (roll back) a set whose process died.
//
// A journal is "<pid>.<uuid>.journal" in the journal directory ("cordon/txn" under the user's
// state directory), held under an exclusive flock(2) by its process for the set's life: a journal
// whose lock can be taken belongs to a dead process. It holds two kinds of record, each one line,
// fsynced before the step it announces:
//
//	plan      {"ops":[...]}  before the first staging directory is made
//	publish   "publish"      after every staged file is complete and fsynced
//
// Recover reads a dead process's journal: without the publish record nothing was published, and
// the staging directories it lists are removed (roll back); with it every operation is redone
// where it has not happened yet (roll forward), each only where the file is still as the set left
// it (a file that changed since is left alone and logged). Then the journal is removed.
//
// Staging directories of a set live beside their targets (so a publication is a rename within one
// filesystem); they are not in the staging registry, whose sweep would remove what a roll forward
// needs.
package txn
