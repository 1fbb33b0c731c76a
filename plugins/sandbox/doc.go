// Package sandbox is the sandbox vocabulary shared by the sandbox plugins and the tools that
// consult them: the modes and their strictly-wider ladder, the escalation targets, and the
// model-facing denial marker and escalation hint (spec sandbox sections 1 and 3).
//
// Modes describe file effects only: read-only denies every mutation, workspace-write allows
// mutations under the writable roots, danger-full-access does not confine.
//
//	if !sandbox.IsWider(requested, effective) {
//		// refuse the escalation without asking anyone
//	}
package sandbox
