package toolfssearch

import (
	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/internal/spill"
)

// createSpill starts a spill file for a complete result; nil when spilling is off or fails (the
// failure is logged).
func (s *suite) createSpill(tool string) *spill.Writer {
	if s.spill == nil {
		return nil
	}
	w, err := s.spill.Create()
	if err != nil {
		s.spillFailed(tool, err)
		return nil
	}
	return w
}

// commitSpill publishes w with header in front and returns the file's path; "" when that fails
// (the failure is logged).
func (s *suite) commitSpill(tool string, w *spill.Writer, header string) string {
	path, err := w.Commit(header)
	if err != nil {
		s.spillFailed(tool, err)
		return ""
	}
	return path
}

func (s *suite) spillFailed(tool string, err error) {
	s.log.Warn("could not save the complete result", zap.String("tool", tool), zap.Error(err))
}
