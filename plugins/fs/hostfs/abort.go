package hostfs

import (
	"context"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// checkAbort returns FS_ABORTED "<verb> aborted" when ctx is done.
func checkAbort(ctx context.Context, verb string) error {
	if err := ctx.Err(); err != nil {
		return fs.Aborted(verb, context.Cause(ctx))
	}
	return nil
}
