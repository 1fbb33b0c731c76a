// Package fssandbox is the fs-sandbox plugin: the confining filesystem
// provider of the fs seam, loaded as the fs service instead of fs-local together with
// a sandbox policy service (sandbox.PolicyService).
//
// It is the host filesystem provider of fs-local (package hostfs: resolution,
// versions, reads, the atomic version-guarded write and the edit critical
// section; same cwd and diffBasisMaxBytes options) and adds a per-call fence on the only two
// mutations, WriteText and EditText. Reads are never fenced.
//
// The provider is a sandbox.Confiner: its SandboxMode is the policy service's
// DefaultMode, read when the provider is built, the capability fact the tool
// layer advertises escalation against.
//
// The fence (docs/sandbox.md "Modes and the policy"), for the policy the call's
// context carries (sandbox.PolicyFrom; none: the
// policy service's agentless resolution, deployment default and configured
// root, taken at call time):
//
//   - danger-full-access: the caller's target is mutated unchanged, unconfined;
//   - read-only: denied before any I/O;
//   - workspace-write: the display path is resolved again and the fresh key
//     must be one of sandbox.WritableRoots (the workspace root, /tmp, the temp
//     dir) or lie beneath one (sandbox.UnderRoot); then the mutation runs on
//     the fresh target with the host provider's Beneath confinement, so the path that
//     was checked is the path that is written: a component swapped for a
//     symlink after the check is denied at the syscall (openat2
//     RESOLVE_BENEATH on Linux), never followed;
//   - protected paths (option protectedPaths, default [".git"]) inside every
//     writable root, and at each ancestor of the workspace root inside the
//     writable root that contains it (a workspace in a subdirectory of a
//     repository under a temp root), stay read-only under workspace-write,
//     whether or not they exist yet (as codex protects
//     .git). Components
//     match as git matches ".git": case folded and the code points HFS+
//     ignores dropped (".GIT/config" is covered); an existing entry also
//     covers its canonical form and any directory with its device and inode
//     (a bind mount or another alias spelling); a ".git" that is a git
//     pointer file (a worktree, a submodule) also covers the git directory it
//     names and that directory's common directory (commondir);
//   - nested repositories, while ".git" is one of the protected paths (the
//     default): no component of the target path may be named like ".git", at
//     any depth, and no directory on the way from the writable root to the
//     target may have, or get from the mutation, the layout git opens as a
//     repository (HEAD with commondir, or HEAD with objects and refs: a nested
//     clone's .git, an embedded bare repository, the git directory a gitlink
//     names, a worktree's git directory), judged by the names alone. The fence
//     checks by path before any I/O; the mutation checks again on the
//     directories it holds (hostfs.Beneath's Adding and Holding): every entry
//     it adds, the marker names under one process-wide lock so concurrent
//     mutations cannot complete a layout between them, and every held
//     directory, up to the root, right before publication;
//   - paths the governing repositories' git configs name, while ".git" is
//     protected: core.hooksPath, include.path and includeIf.*.path files
//     (followed), and the paths in command-valued settings (core.fsmonitor,
//     filter.*.clean, ...); the configs are parsed in process (never by
//     running git) and again only when their stat changes (gitnamed.go and
//     the git*.go files beside it).
//
// Denials are *fs.Error with code FS_SANDBOX_DENIED and the message
// `cannot write "<displayPath>": file access denied under <mode> mode`, also
// for edits (Denied). A protected-path denial has the same text and a cause
// wrapping ErrProtectedPath; a denial at the syscall has a cause wrapping
// hostfs.ErrEscape.
//
// Accepted limits: a common directory without a HEAD of its own (git never
// makes one) is protected only when a root's ".git" pointer names it; files
// a hook or a tool reads from the work tree (lefthook.yml,
// .pre-commit-config.yaml) are ordinary files. Hard links inside a root to outside
// inodes are "inside" (the atomic rename gives the inside name a new inode,
// the outside file is unchanged); bind mounts inside a root are not seen by
// containment. A
// directory that another writer moves out of the root, or renames onto (or
// exchanges with) a protected entry, while a mutation holds it is refused
// right before publication (hostfs.Beneath walks up from the held directory
// to the root's identity and checks the protected entries as they are then);
// only the window between that check and the rename itself stays open.
package fssandbox
