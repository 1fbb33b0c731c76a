// Package history keeps the prior state of every change Cordon publishes and undoes changes under
// the version check (docs/history.md). Store is the seam the records and content live behind;
// Open returns the embedded implementation (bbolt records, content-addressed blob files).
package history
