package history

import (
	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/fs"
)

// Log is what fs-history provides: its store and the filesystem its changes go through.
type Log struct {
	Store Store
	FS    fs.FileSystem
	Dir   string
}

// Service is the history service key ("history"), provided by fs-history; hosts (the harness's
// history and undo commands) use it.
var Service = kernel.NewService[*Log]("history")
