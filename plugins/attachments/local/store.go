package local

import (
	"context"
	"path/filepath"
	"time"

	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// Store is the local attachment backend: a content-addressed private store
// below <home>/attachments/v1. It implements attachments.Store.
type Store struct {
	home        string
	root        string
	limits      attachments.ImageLimits
	policy      NormalizationPolicy
	concurrency int
	limiter     *limiter
	memory      memoryGate
	index       *objectIndex
	log         *zap.Logger

	// Test hooks (nil in production).
	onSyncDir  func(dir string)
	beforeLink func(tmp string)
	duringRead func(h string) // after the pin, before the object is opened
}

var _ attachments.Store = (*Store)(nil)

// New returns a Store for cfg. It performs no I/O and checks only the
// concurrency (with Validate's message) and imageTransformMemoryBytes,
// imageTransformMemoryWaitMs and maxStoreBytes (positive); the other
// options are checked by Validate when the config comes through the
// loader. A nil logger means zap.NewNop().
func New(cfg Config, log *zap.Logger) (*Store, error) {
	c := cfg.ImageCompressionConcurrency
	if c < 1 || c > MaxImageCompressionConcurrency {
		return nil, concurrencyError()
	}
	for _, f := range cfg.numeric()[8:] {
		if *f.v < 1 || *f.v > maxSafeInteger {
			return nil, positiveError(f.name)
		}
	}
	home, err := resolveHome(cfg.Home)
	if err != nil {
		return nil, err
	}
	if log == nil {
		log = zap.NewNop()
	}
	root := filepath.Join(home, "attachments", "v1")
	return &Store{
		home: home,
		root: root,
		limits: attachments.ImageLimits{
			MaxImageBytes:        cfg.MaxImageBytes,
			MaxImagesPerMessage:  cfg.MaxImagesPerMessage,
			MaxMessageImageBytes: cfg.MaxMessageImageBytes,
			MaxImagePixels:       cfg.MaxImagePixels,
			MaxImageDimension:    cfg.MaxImageDimension,
			MediaTypes:           attachments.MediaTypes(),
		},
		policy:      NormalizationPolicy{MaxDimension: cfg.NormalizedImageMaxDimension, MaxBytes: cfg.NormalizedImageMaxBytes},
		concurrency: c,
		limiter:     newLimiter(c),
		memory: memoryGate{
			budget: processBudget(int64(cfg.ImageTransformMemoryBytes)),
			wait:   time.Duration(cfg.ImageTransformMemoryWaitMs) * time.Millisecond,
		},
		index: newObjectIndex(root, int64(cfg.MaxStoreBytes)),
		log:   log,
	}, nil
}

// Root returns the absolute storage root, <home>/attachments/v1.
func (s *Store) Root() string { return s.root }

// Home returns the resolved absolute home directory.
func (s *Store) Home() string { return s.home }

// NormalizationPolicy returns the resolved normalization policy.
func (s *Store) NormalizationPolicy() NormalizationPolicy { return s.policy }

// ImageCompressionConcurrency returns the transform concurrency.
func (s *Store) ImageCompressionConcurrency() int { return s.concurrency }

// ImageLimits returns the resolved limits (a fresh copy; MediaTypes is all
// four types, not configurable).
func (s *Store) ImageLimits() attachments.ImageLimits {
	l := s.limits
	l.MediaTypes = attachments.MediaTypes()
	return l
}

// prepareLimited runs prepare inside the transform limiter.
func (s *Store) prepareLimited(ctx context.Context, in attachments.SaveImage) (prepared, error) {
	var p prepared
	err := s.limiter.run(ctx, func() error {
		var err error
		p, err = prepare(ctx, in, s.limits, s.policy, s.memory)
		return err
	})
	if err != nil && ctx.Err() != nil {
		return prepared{}, context.Cause(ctx)
	}
	return p, err
}

// ValidateImage runs the complete admission of one image (normalization
// included) inside the limiter and discards the result; storage is not
// touched.
func (s *Store) ValidateImage(ctx context.Context, in attachments.SaveImage) error {
	_, err := s.prepareLimited(ctx, in)
	return err
}

// SaveImage prepares one image inside the limiter and commits it
// (docs/attachments.md "Storage"). It does not check the media-type list nor
// the batch limits.
func (s *Store) SaveImage(ctx context.Context, in attachments.SaveImage) (attachments.ImageRef, error) {
	p, err := s.prepareLimited(ctx, in)
	if err != nil {
		return attachments.ImageRef{}, err
	}
	if ctx.Err() != nil {
		return attachments.ImageRef{}, context.Cause(ctx)
	}
	ref, unpin, err := s.commit(p)
	if err != nil {
		return attachments.ImageRef{}, err
	}
	unpin()
	return ref, nil
}

// SaveImages is docs/attachments.md "Admission": the batch check, then every
// member prepared concurrently through the limiter (each decoded and
// normalized once); any failure rejects the batch with the first failing
// member in input order and nothing is written. Otherwise the members are
// committed sequentially in input order; a commit failure returns no refs
// (earlier objects stay).
func (s *Store) SaveImages(ctx context.Context, in []attachments.SaveImage) ([]attachments.ImageRef, error) {
	if err := attachments.CheckBatch(s.limits, in); err != nil {
		return nil, err
	}
	ps := make([]prepared, len(in))
	errs := make([]error, len(in))
	done := make(chan struct{})
	for i := range in {
		go func() {
			defer func() { done <- struct{}{} }()
			ps[i], errs[i] = s.prepareLimited(ctx, in[i])
		}()
	}
	for range in {
		<-done
	}
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	// Every committed member stays pinned until the batch returns, so a
	// later member's eviction never removes an earlier one.
	refs := make([]attachments.ImageRef, 0, len(in))
	for _, p := range ps {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		ref, unpin, err := s.commit(p)
		if err != nil {
			return nil, err
		}
		defer unpin()
		refs = append(refs, ref)
	}
	return refs, nil
}

// ReadImage is the verified read (docs/attachments.md "Storage").
func (s *Store) ReadImage(ctx context.Context, ref attachments.ImageRef) (attachments.StoredImage, error) {
	return s.read(ctx, ref)
}

// ReadImageRequest is not implemented: request-image variants are out of
// scope (docs/attachments.md "Errors"). It returns context.Cause(ctx) when
// ctx is done, else ATTACHMENT_PROJECTION_UNSUPPORTED.
func (s *Store) ReadImageRequest(ctx context.Context, _ attachments.ImageRef, _ attachments.ImageRequestPolicy) (attachments.RequestImage, error) {
	return attachments.UnsupportedRequest(ctx)
}
