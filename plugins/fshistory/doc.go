// Package fshistory is the fs-history plugin (docs/history.md): it records the prior state of
// every change the fs seam publishes (fs.PublishedEvent) in a history.Store under the user's
// state directory, registers the model tool undo, and provides history.Service for the host's
// history and undo commands. Removing it from the composition removes the tool and the records
// and changes nothing else.
package fshistory
