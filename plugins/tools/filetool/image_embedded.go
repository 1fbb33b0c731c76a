package filetool

import (
	"context"
	"errors"
	"strings"

	"github.com/cordon-dev/cordon/plugins/attachments"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// AdmitEmbeddedImages runs read_image's gates that apply to images inside a file read as
// something else (a notebook's outputs, docs/notebooks.md "Images"): the store and the route,
// before any image is decoded. Its refusal is the reason the images are not shown, without
// read_image's `cannot read "<p>"` prefix: `no attachment service is mounted`, `the current model
// route could not be resolved`, `model "<m>" does not declare image input; ...`. Whether the
// deployment accepts each image's type is Accepts of the admission's limits.
func (e *Env) AdmitEmbeddedImages(ctx context.Context, exec *tools.Exec, p string) (ImageAdmission, error) {
	store, ok := attachments.Service.Get(e.KC)
	if !ok {
		return ImageAdmission{}, errors.New("no attachment service is mounted")
	}
	if err := e.requireImageRoute(ctx, exec, p); err != nil {
		return ImageAdmission{}, errors.New(strings.TrimPrefix(err.Error(), `cannot read "`+p+`" as an image: `))
	}
	return ImageAdmission{Store: store, Limits: store.ImageLimits()}, nil
}
