package local

import (
	"context"
	"errors"
	"fmt"

	"golang.org/x/sync/semaphore"
)

// MsgNonErrorRejection is the error of a limited task that panicked with a
// value that is not an error.
const MsgNonErrorRejection = "Image compression task rejected with a non-Error value."

// limiter is the FIFO transform limiter (imageCompressionConcurrency,
// docs/attachments.md "Configuration"), n slots of a semaphore.Weighted: at
// most n tasks run at once; a task holds its slot until it returns (or
// panics) and the oldest waiter starts next. A caller whose context ends (or
// has ended) before it has a slot returns context.Cause(ctx) without taking
// one.
type limiter struct{ sem *semaphore.Weighted }

func newLimiter(n int) *limiter { return &limiter{sem: semaphore.NewWeighted(int64(n))} }

// run runs task inside a slot. A panic is recovered: an error value is
// returned as is, any other value becomes MsgNonErrorRejection with the
// value as the cause.
func (l *limiter) run(ctx context.Context, task func() error) (err error) {
	if err := l.sem.Acquire(ctx, 1); err != nil {
		return context.Cause(ctx)
	}
	defer l.sem.Release(1)
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = e
				return
			}
			err = &nonErrorRejection{value: r}
		}
	}()
	return task()
}

// nonErrorRejection wraps a non-error panic value.
type nonErrorRejection struct{ value any }

func (e *nonErrorRejection) Error() string { return MsgNonErrorRejection }

// Unwrap exposes the raw value as an error.
func (e *nonErrorRejection) Unwrap() error { return errors.New(fmt.Sprint(e.value)) }
