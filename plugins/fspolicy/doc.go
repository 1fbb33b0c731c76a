// Package fspolicy is the fs-observation-policy plugin: the read-before-write
// and read-before-edit gate of the filesystem tools.
//
// It registers no service and performs no filesystem I/O (a Recheck judges
// the text the provider hands it). Each plugin
// instance keeps, in memory, a map owner -> (target key -> last
// fs.Observation) and registers:
//
//   - a decider on fs.WriteIntentEvent: replaceIfVersion(v) when the owner's
//     last observation of the target is present at v, createIfAbsent
//     otherwise (no owner, never observed, observed absent); it never fails;
//   - a decider on fs.EditIntentEvent: a guard at v when present at v;
//     under staleness content (the default) and region, both carry an
//     fs.Recheck of what was seen at v, which the provider calls under its
//     lock over a moved version (docs/fs.md "Staleness"): content lands when
//     every window seen is byte for byte unchanged (a write also needs the
//     windows to cover the file) and moves the observation to the new
//     version; region also lands an edit whose touched lines were seen and
//     are unchanged, and reports the seen lines that changed elsewhere; a
//     refusal is the provider's FS_STALE_VERSION with fs.Guidance (a bounded
//     diff of what was seen against the file now);
//     FS_NOT_FOUND `cannot edit "<p>": not found` when observed absent;
//     FS_NOT_OBSERVED `edit requires reading "<p>" first` with no owner or no
//     record;
//   - a recorder on fs.ObservedEvent: the observation overwrites the entry
//     (last one wins, no version ordering; what was seen accumulates while
//     the version stays, bounded per file and per owner); nothing is recorded
//     without an owner; it never fails;
//   - a listener on tools.SessionEnded that drops the ended session's entries
//     (Policy.EndSession), so nothing outlives its session.
//
// The deciders never call next, so the caller's default and any later decider
// are never reached. Without this plugin the intent waterfalls fall through to
// the caller's default (tool-fs: unconditional mutations).
//
// Owner: the actor passed with an event is an owner when it implements Owner
// (SessionKey() any) and returns a non-nil comparable key. tool-fs passes its
// *tools.Exec, whose SessionKey is the *tools.Session pointer, so two session
// objects are two owners even with the same ID.
//
// Disposal drops the state immediately; a fresh instance starts empty.
package fspolicy
