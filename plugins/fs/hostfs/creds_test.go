package hostfs

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// The kernel's rules for an unprivileged writer, whatever user runs the test.
func TestCredsRules(t *testing.T) {
	user := creds{euid: 1000, egid: 1000, groups: []int{1000, 20}}
	root := creds{chown: true, fsetid: true}
	suidSgid := os.ModeSetuid | os.ModeSetgid
	assert.Equal(t, os.FileMode(0o755), user.writeKeepsMode(0o755|suidSgid, 1000), "group-exec: both cleared")
	assert.Equal(t, 0o644|os.ModeSetgid, user.writeKeepsMode(0o644|suidSgid, 20), "no group-exec, in the group: setgid stays")
	assert.Equal(t, os.FileMode(0o644), user.writeKeepsMode(0o644|os.ModeSetgid, 5), "not in the group: setgid cleared")
	assert.Equal(t, 0o755|suidSgid|os.ModeSticky, root.writeKeepsMode(0o755|suidSgid|os.ModeSticky, 5), "CAP_FSETID keeps them")

	own := probeInfo{Uid: 1000, Gid: 20}
	assert.NoError(t, checkOwnerKept(user, own, "/f", fs.VerbWrite))
	assert.NoError(t, checkOwnerKept(root, probeInfo{Uid: 7, Gid: 7}, "/f", fs.VerbWrite))
	assert.Equal(t, fs.OwnerNotKept(fs.VerbEdit, "/f", 7, 1000), checkOwnerKept(user, probeInfo{Uid: 7, Gid: 1000}, "/f", fs.VerbEdit))
	assert.Equal(t, fs.GroupNotKept(fs.VerbWrite, "/f", 5), checkOwnerKept(user, probeInfo{Uid: 1000, Gid: 5}, "/f", fs.VerbWrite))
}
