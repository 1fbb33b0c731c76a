package toolfssearch

import (
	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/internal/spill"
)

// createSpill starts a spill file for a complete result with headerRoom bytes for its header and
// room for w's note; nil when spilling is off or fails (the failure is logged).
func (s *suite) createSpill(tool string, headerRoom int, w spillWords) *spill.Writer {
	if s.spill == nil {
		return nil
	}
	sw, err := s.spill.Create(headerRoom, w.noteRoom(s.caps.spillLimits.MaxFileBytes))
	if err != nil {
		s.spillFailed(tool, err)
		return nil
	}
	return sw
}

// commitSpill publishes sw with header in front and, when it was cut, w's note after the records
// it kept; the zero savedAs when that fails (logged) or nothing could be kept.
func (s *suite) commitSpill(tool string, sw *spill.Writer, header string, w spillWords, total int) savedAs {
	if sw.Records() == 0 {
		sw.Abort()
		return savedAs{}
	}
	limit := s.caps.spillLimits.MaxFileBytes
	path, err := sw.Commit(header, w.note(sw.Records(), total, limit))
	if err != nil {
		s.spillFailed(tool, err)
		return savedAs{}
	}
	if !sw.Cut() {
		return savedAs{path: path}
	}
	return savedAs{path: path, kept: sw.Records(), limit: limit}
}

// spillPathLen is the length of a spill file's path (0 when spilling is off).
func (s *suite) spillPathLen() int {
	if s.spill == nil {
		return 0
	}
	return s.spill.PathLen()
}

func (s *suite) spillFailed(tool string, err error) {
	s.log.Warn("could not save the complete result", zap.String("tool", tool), zap.Error(err))
}
