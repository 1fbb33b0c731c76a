package attachmentlocal

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// MsgNonErrorRejection is the error of a limited task that panicked with a
// value that is not an error (the reference's "non-Error rejection").
const MsgNonErrorRejection = "Image compression task rejected with a non-Error value."

// limiter is the FIFO transform limiter (imageCompressionConcurrency,
// docs/attachments.md "Configuration"): at most n tasks run at once; a task
// holds its slot until it returns (or panics) and the oldest waiter starts
// next. A waiter whose context ends leaves the queue with context.Cause(ctx)
// without taking a slot.
type limiter struct {
	mu      sync.Mutex
	n       int
	running int
	queue   []chan struct{}
}

func newLimiter(n int) *limiter { return &limiter{n: n} }

// acquire takes a slot in FIFO order.
func (l *limiter) acquire(ctx context.Context) error {
	l.mu.Lock()
	if l.running < l.n && len(l.queue) == 0 {
		l.running++
		l.mu.Unlock()
		return nil
	}
	ch := make(chan struct{})
	l.queue = append(l.queue, ch)
	l.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		l.mu.Lock()
		for i, c := range l.queue {
			if c == ch {
				l.queue = append(l.queue[:i], l.queue[i+1:]...)
				l.mu.Unlock()
				return context.Cause(ctx)
			}
		}
		l.mu.Unlock()
		// The slot was handed over concurrently: pass it on.
		<-ch
		l.release()
		return context.Cause(ctx)
	}
}

// release hands the slot to the oldest waiter, or frees it.
func (l *limiter) release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.queue) > 0 {
		ch := l.queue[0]
		l.queue = l.queue[1:]
		close(ch)
		return
	}
	l.running--
}

// run runs task inside a slot. A panic is recovered: an error value is
// returned as is, any other value becomes MsgNonErrorRejection with the
// value as the cause.
func (l *limiter) run(ctx context.Context, task func() error) (err error) {
	if err := l.acquire(ctx); err != nil {
		return err
	}
	defer l.release()
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
