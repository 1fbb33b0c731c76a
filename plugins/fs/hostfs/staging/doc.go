// Package staging names the private staging directories (and the linked temp files, FileName) of
// the host provider's atomic publications and keeps, under the user's state directory, a registry
// of the ones this process creates, so that the next process to start removes what a killed one
// left behind (docs/fs.md, "Crash residue"). A linked temp file is registered as a staging
// directory is, and swept when it is a regular file of this user named for the dead process.
//
// A staging directory is ".<base>.<pid>.<uuid>.tmpdir" beside its target (Name). Before creating
// one, a writer records its path (Begin) in its process's registry file, "<pid>.<uuid>.staging" in
// the registry directory, which the process holds under an exclusive flock(2) for its whole life;
// a directory that was never created is struck off (Abandon); one removed after the publication is
// forgotten (End). The file is rewritten with only the live entries every compactEvery records,
// so it stays small whatever the number of writes.
//
// Sweep (run once per process and registry directory, when the first provider starts: For) takes
// every registry file whose process is gone (its flock can be taken, it is still linked under its
// name, it was written on this host and its pid names no live process) and removes each staging
// directory it lists that still exists, is a real directory and carries that process's pid in its
// name; then it removes the registry file. A registry of a live process is never read, so a live
// process's staging directory is never touched. The work is proportional to what dead processes
// left, not to the size of any workspace; nothing on the write path lists a directory.
//
// Records are "<op><path>\x00" (a path never holds a NUL): "h" the host name (first), "+" a
// staging directory, "-" one struck off. They are not fsynced: a SIGKILL keeps the page cache, and
// after a power loss a missing record costs only residue.
package staging
