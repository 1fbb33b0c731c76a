package coded_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cordon-dev/cordon/internal/coded"
)

type fsCode string

func (fsCode) ErrorName() string { return "FsError" }

type imgCode string

func (imgCode) ErrorName() string { return "AttachmentError" }

func TestCodedErrors(t *testing.T) {
	cause := errors.New("EIO")
	err := fmt.Errorf("wrapped: %w", &coded.Error[fsCode]{Kind: "FS_IO_ERROR", Message: "cannot write", Cause: cause})
	assert.ErrorIs(t, err, &coded.Error[fsCode]{Kind: "FS_IO_ERROR"}, "a code sentinel matches any message")
	assert.ErrorIs(t, err, &coded.Error[fsCode]{Kind: "FS_IO_ERROR", Message: "cannot write"})
	assert.NotErrorIs(t, err, &coded.Error[fsCode]{Kind: "FS_IO_ERROR", Message: "other"})
	assert.NotErrorIs(t, err, &coded.Error[imgCode]{Kind: "FS_IO_ERROR"}, "another seam's error is another type")
	assert.ErrorIs(t, err, cause)
	var fe *coded.Error[fsCode]
	assert.True(t, errors.As(err, &fe))
	assert.Equal(t, "FsError", fe.Name())
	assert.Equal(t, "FS_IO_ERROR", fe.Code())
	var ie *coded.Error[imgCode]
	assert.False(t, errors.As(err, &ie))
}

func TestCodeOfAndHasCode(t *testing.T) {
	err := fmt.Errorf("wrapped: %w", &coded.Error[fsCode]{Kind: "FS_NOT_FOUND", Message: "missing"})
	assert.Equal(t, fsCode("FS_NOT_FOUND"), coded.CodeOf[fsCode](err))
	assert.Equal(t, imgCode(""), coded.CodeOf[imgCode](err), "another seam's code is not found")
	assert.Equal(t, fsCode(""), coded.CodeOf[fsCode](errors.New("plain")))
	assert.True(t, coded.HasCode(err, fsCode("FS_NOT_FOUND")))
	assert.False(t, coded.HasCode(err, fsCode("FS_IO_ERROR")))
	assert.False(t, coded.HasCode(err, imgCode("FS_NOT_FOUND")))
}
