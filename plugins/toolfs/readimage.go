package toolfs

import (
	"context"
	"encoding/base64"
	"errors"

	"github.com/cordon-dev/cordon/internal/budget"
	"github.com/cordon-dev/cordon/internal/jstext"
	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/attachments"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// readImageModuleID is the id of the child instance that holds the read_image registration.
const readImageModuleID = ID + "/read-image"

// mountReadImage loads, as a child of the tool-fs instance, the module that registers read_image.
// It injects the attachments service, so the tool exists exactly while a store is mounted: the
// child stays pending without one, unloads (withdrawing the tool) when the store goes and loads
// again when one returns. The other tools are unaffected.
func (s *suite) mountReadImage(kc *kernel.Context) error {
	m := kernel.Module{
		ID:     readImageModuleID,
		Inject: []kernel.Dep{attachments.Service.Dep()},
		Apply: func(child *kernel.Context, _ any) error {
			_, err := tools.Service.Must(child).Register(child, s.readImageDefinition())
			return err
		},
	}
	_, err := kc.Load(m, nil)
	return err
}

func (s *suite) readImageDefinition() tools.Definition {
	return tools.Tool[readImageArgs, ReadImageValue]{
		Name:        "read_image",
		Description: readImageDescription,
		Parameters:  readImageParameters,
		Execute:     budget.Errors(s.caps.budget, s.readImage),
		Render: func(_ readImageArgs, v ReadImageValue) []tools.Content {
			return []tools.Content{
				tools.TextContent(RenderReadImage(v.Path, v.Image)),
				tools.ImageContent(string(v.Image.MediaType), base64.StdEncoding.EncodeToString(s.imageBytes(v))),
			}
		},
		PresentationMeta: func(_ readImageArgs, v ReadImageValue) any { return ReadImageMeta{Path: v.Path} },
		// Content-addressed attachment writes are idempotent: concurrent reads cannot conflict.
		ConcurrencySafe: func(readImageArgs) bool { return true },
		Annotations:     tools.Annotations{ReadOnly: true, Idempotent: true},
	}.Definition()
}

// readImageArgs are read_image's arguments.
type readImageArgs struct {
	FilePath string `json:"file_path"`
}

// imageBytes returns the stored bytes of a value: those the body read, or (for a value a
// post-execute policy replaced, which carries only the attachment reference) a verified read from
// the store. It panics when neither is available, which the runtime reports as INVALID_TOOL_OUTPUT.
func (s *suite) imageBytes(v ReadImageValue) []byte {
	if v.data != nil {
		return v.data
	}
	store, ok := attachments.Service.Get(s.kc)
	if !ok {
		panic("read_image: the image bytes are unavailable (no attachment service is mounted)")
	}
	stored, err := store.ReadImage(context.Background(), v.Image)
	if err != nil {
		panic("read_image: the image bytes are unavailable: " + err.Error())
	}
	return stored.Data
}

// readImage is the body of the read_image tool (docs/tool-fs.md "read_image", extension-less paths
// included): every gate runs before any filesystem I/O; then resolve, one Stat, a bounded
// read, the signature check of an extension-less file, SaveImage, a verified read of the stored
// bytes, and the present observation at the Stat's version.
func (s *suite) readImage(ctx context.Context, a readImageArgs, exec *tools.Exec) (ReadImageValue, error) {
	p := a.FilePath
	if jstext.IsBlank(p) {
		return ReadImageValue{}, errBlankPath
	}
	adm, err := s.admitImage(ctx, exec, p)
	if err != nil {
		return ReadImageValue{}, err
	}

	target, err := s.fs.Resolve(ctx, p, fs.ResolveOptions{Cwd: sessionCwd(exec.Header().Cwd, p)})
	if err != nil {
		return ReadImageValue{}, err
	}
	dp := target.DisplayPath
	info, err := s.fs.Stat(ctx, target)
	if err != nil {
		return ReadImageValue{}, err
	}
	if info == nil {
		if err := s.observe(ctx, target, fs.Absent(), exec); err != nil {
			return ReadImageValue{}, err
		}
		return ReadImageValue{}, fs.ReadNotFound(dp, nil)
	}
	if info.Type != fs.TypeFile {
		return ReadImageValue{}, fs.ReadNotRegular(dp)
	}
	data, err := s.fs.ReadBytes(ctx, target, adm.readCap())
	if err != nil {
		return ReadImageValue{}, err
	}

	claim := imageClaim{mediaType: adm.declared}
	if adm.declared == "" {
		sniffed, err := sniffImage(data, adm.limits, dp)
		if err != nil {
			return ReadImageValue{}, err
		}
		claim = imageClaim{mediaType: sniffed, sniffed: true}
	} else {
		// The mismatch remedy names the display path's extension.
		claim.ext, _ = imageExtension(dp)
	}

	// Persist before returning: the image block must reference a durable object by the time
	// the tool result is recorded.
	ref, err := adm.store.SaveImage(ctx, attachments.SaveImage{Data: data, MediaType: claim.mediaType, Name: baseName(dp)})
	if err != nil {
		return ReadImageValue{}, remapSaveError(err, dp, adm.limits, claim)
	}
	stored, err := adm.store.ReadImage(ctx, ref)
	if err != nil {
		return ReadImageValue{}, err
	}
	if err := s.observe(ctx, target, fs.Present(info.Version), exec); err != nil {
		return ReadImageValue{}, err
	}
	return ReadImageValue{Path: dp, Image: ref, data: stored.Data}, nil
}

// imageAdmission is what read_image's gates admit before any file I/O: the store, its limits, and
// the media type the path's extension declares ("" for an extension-less path, whose signature
// decides after the read).
type imageAdmission struct {
	store    attachments.Store
	limits   attachments.ImageLimits
	declared attachments.MediaType
}

// readCap is the bound of the read: one tool result is one message carrying one image, so the
// per-message bound applies too.
func (a imageAdmission) readCap() int64 {
	return int64(min(a.limits.MaxImageBytes, a.limits.MaxMessageImageBytes))
}

// admitImage runs read_image's gates that follow the blank-path check, in their order
// (docs/tool-fs.md "Gates, in order, all before any file I/O"): the extension, the store, the
// declared type against the deployment's, and the route. p is the path the refusals name.
func (s *suite) admitImage(ctx context.Context, exec *tools.Exec, p string) (imageAdmission, error) {
	ext, declared := imageExtension(p)
	if declared == "" && ext != "" {
		return imageAdmission{}, errors.New(`cannot read "` + p + `": the ` + ext + ` extension does not declare a supported image format; ` +
			`read_image accepts PNG/JPEG/WebP/GIF files, including extension-less files in those formats`)
	}
	store, ok := attachments.Service.Get(s.kc)
	if !ok {
		return imageAdmission{}, errors.New(`cannot read "` + p + `" as an image: no attachment service is mounted`)
	}
	limits := store.ImageLimits()
	if declared != "" && !limits.Accepts(declared) {
		return imageAdmission{}, notAccepted(p, declared)
	}
	if err := s.requireImageRoute(ctx, exec, p); err != nil {
		return imageAdmission{}, err
	}
	return imageAdmission{store: store, limits: limits, declared: declared}, nil
}

// sniffImage is the signature check of an extension-less file (docs/tool-fs.md "read_image",
// "Then" step 3): the media type data claims, refused when none matches or when the deployment
// does not accept it. dp is the display path the refusals name.
func sniffImage(data []byte, limits attachments.ImageLimits, dp string) (attachments.MediaType, error) {
	sniffed := SniffImageType(data)
	if sniffed == "" {
		return "", errors.New(`cannot read "` + dp + `": the file content is not a supported image format; read_image accepts PNG/JPEG/WebP/GIF`)
	}
	if !limits.Accepts(sniffed) {
		return "", notAccepted(dp, sniffed)
	}
	return sniffed, nil
}

// notAccepted is the refusal of a media type the deployment does not accept; p is the raw
// argument (declared type, before I/O) or the display path (sniffed type, after the read).
func notAccepted(p string, m attachments.MediaType) error {
	return errors.New(`cannot read "` + p + `": ` + string(m) + ` images are not accepted by this deployment`)
}

// baseName is Node's POSIX path.basename: the last segment, trailing '/' ignored.
func baseName(p string) string {
	end := len(p)
	for end > 0 && p[end-1] == '/' {
		end--
	}
	start := end
	for start > 0 && p[start-1] != '/' {
		start--
	}
	return p[start:end]
}

// requireImageRoute is the route gate (docs/tool-fs.md "Gates, in order, all before any file I/O",
// through the tools.Models seam): the call's model is its session's header model, else the
// catalog's default model. Without a session, a catalog or a model the route cannot be resolved; a
// resolve error propagates unchanged; a model that does not declare image input (unknown capability
// included) is refused.
func (s *suite) requireImageRoute(ctx context.Context, exec *tools.Exec, p string) error {
	catalog, ok := tools.Models.Get(s.kc)
	model := ""
	if ok {
		model = tools.ModelFor(exec, catalog)
	}
	if model == "" {
		return errors.New(`cannot read "` + p + `" as an image: the current model route could not be resolved`)
	}
	info, err := catalog.ResolveModel(ctx, model)
	if err != nil {
		return err
	}
	if !info.AcceptsImages() {
		return errors.New(`cannot read "` + p + `" as an image: model "` + model +
			`" does not declare image input; switch to an image-capable model to read images`)
	}
	return nil
}
