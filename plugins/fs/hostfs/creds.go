package hostfs

import (
	"os"
	"slices"
)

// creds is what the kernel would let this process do to a file's owner and
// mode: the effective ids and the two capabilities a replacement needs to
// keep another owner's file as it was.
type creds struct {
	euid, egid int
	groups     []int
	// chown: CAP_CHOWN, any owner and group may be given.
	chown bool
	// fsetid: CAP_FSETID, a write keeps the setuid and setgid bits.
	fsetid bool
}

// currentCreds reads the process's credentials (they may change, so each
// mutation reads them).
func currentCreds() creds {
	c := creds{euid: os.Geteuid(), egid: os.Getegid()}
	c.groups, _ = os.Getgroups()
	c.chown, c.fsetid = capabilities(c.euid)
	return c
}

// inGroup reports whether gid is the process's effective or a supplementary
// group (a chown to it is allowed to the file's owner).
func (c creds) inGroup(gid int) bool { return gid == c.egid || slices.Contains(c.groups, gid) }

// writeKeepsMode is mode as write(2) by this process would leave it on the
// file it writes: without CAP_FSETID the kernel clears the setuid bit, and
// the setgid bit when the group may execute (without group-exec it is a
// locking mark and stays) or when the writer is not in the file's group.
func (c creds) writeKeepsMode(mode os.FileMode, gid int) os.FileMode {
	if c.fsetid {
		return mode
	}
	mode &^= os.ModeSetuid
	if mode&0o010 != 0 || !c.inGroup(gid) {
		mode &^= os.ModeSetgid
	}
	return mode
}
