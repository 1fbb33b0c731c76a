package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"

	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/internal/argcheck"
)

// errArgsNotLossless is the snapshot failure of step 1 (a plain error).
var errArgsNotLossless = errors.New("tool execution arguments must be losslessly JSON-serializable")

// callState is the per-call bookkeeping kept outside the shared Exec.
type callState struct {
	caller      context.Context
	argv        *argcheck.Value // the parsed argument snapshot
	bodyInvoked bool
}

// Execute runs one call through the pipeline and returns its final result. It
// never panics and never returns a Go error: every failure is a Result.
//
// Order: (1) snapshot the arguments as lossless JSON; (2) a cancelled ctx
// yields ABORTED_BEFORE_DISPATCH; (3) tools/pre-execute (ask goes to the
// Approval service or degrades to deny), then guards; (4) tools/execute around
// the body, which resolves the tool (UNKNOWN_TOOL), checks the arguments
// against its schema (INVALID_ARGS), runs it, and validates, renders and
// projects its value; (5) tools/post-execute; (6) tools/result, contained.
// Cancellation after the body started replaces a successful result with
// ABORTED; a cancellation noticed before it started yields
// ABORTED_BEFORE_DISPATCH.
func (r *Runtime) Execute(ctx context.Context, call Call) (res Result) {
	exec := &Exec{
		CallID:     call.CallID,
		RootCallID: call.RootCallID,
		Name:       call.Name,
		Session:    call.Session,
		Parent:     call.Parent,
		skipMeta:   call.SkipMeta,
	}
	if exec.RootCallID == "" {
		exec.RootCallID = exec.CallID
	}
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("tools: pipeline panicked", zap.String("tool", exec.Name), zap.Any("panic", p), zap.ByteString("stack", debug.Stack()))
			res = ErrorResult(fmt.Errorf("tool %s failed: %s", quote(exec.Name), panicMessage(p)))
		}
		res.canon = nil
		r.notify(ctx, exec, res)
	}()

	args, argv, err := argcheck.Snapshot(call.Args)
	if err != nil {
		if te := (*argcheck.TextError)(nil); errors.As(err, &te) {
			return ErrorResult(te)
		}
		return ErrorResult(errArgsNotLossless)
	}
	exec.Args = args
	st := &callState{caller: ctx, argv: argv}
	if ctx.Err() != nil {
		return abortedBeforeDispatchResult()
	}

	pre, final := r.prepare(ctx, exec, st)
	if final {
		return pre
	}
	var dispatched Result
	if pre.IsError {
		dispatched = pre
	} else {
		dispatched, final = r.dispatch(ctx, exec, st)
		if final {
			return dispatched
		}
	}
	post := r.postExecute(ctx, exec, dispatched)
	if st.caller.Err() != nil && !post.IsError {
		return r.cancellation(st)
	}
	return post
}

// dispatch runs tools/execute around the body, and tools/execute-change inside it for a tool that
// is not read-only. final reports a wrapper failure, which skips post-execute.
func (r *Runtime) dispatch(ctx context.Context, exec *Exec, st *callState) (res Result, final bool) {
	d := &Dispatch{Exec: exec, Ctx: ctx}
	body := func() (Result, error) { return r.runBody(d, st), nil }
	res, err := ExecuteStep.Run(ctx, r.kc, d, func() (Result, error) {
		if e := r.lookup(exec.Name); e == nil || e.def.Annotations.ReadOnly {
			return body()
		}
		return ChangeStep.Run(ctx, r.kc, d, body)
	})
	if err != nil {
		return ErrorResult(err), true
	}
	res = r.normalize(exec, res)
	if st.caller.Err() != nil && !res.IsError {
		return r.cancellation(st), false
	}
	return res, false
}

// normalize re-validates a success a wrapper authored itself.
func (r *Runtime) normalize(exec *Exec, res Result) Result {
	if res.canon == exec {
		return res
	}
	if res.IsError {
		if res.Error == nil {
			res.Error = &ErrorInfo{Message: failureMessage(res.Content)}
		}
		res.canon = exec
		return res
	}
	e := r.lookup(exec.Name)
	if e == nil {
		return r.canonical(exec, ErrorResult(newUnknownToolError(exec.Name)))
	}
	out, err := r.success(exec, e, res.Value)
	if err != nil {
		return r.canonical(exec, ErrorResult(err))
	}
	return out
}

func (r *Runtime) canonical(exec *Exec, res Result) Result {
	res.canon = exec
	return res
}

func (r *Runtime) cancellation(st *callState) Result {
	if st.bodyInvoked {
		return abortedResult()
	}
	return abortedBeforeDispatchResult()
}

// runBody is the innermost step of tools/execute.
func (r *Runtime) runBody(d *Dispatch, st *callState) Result {
	exec := d.Exec
	bodyCtx, release := fuse(st.caller, d.Ctx)
	defer release()
	if bodyCtx.Err() != nil {
		return r.canonical(exec, abortedBeforeDispatchResult())
	}
	e := r.lookup(exec.Name)
	if e == nil || !r.Exposed(exec.Header(), exec.Name) {
		return r.canonical(exec, ErrorResult(newUnknownToolError(exec.Name)))
	}
	st.bodyInvoked = true
	args, argv := coerceArgs(e, exec.Args, st.argv)
	if violations := e.params.Check(argv); len(violations) > 0 {
		return r.canonical(exec, ErrorResult(newArgsError(violations)))
	}
	in, err := e.def.body.decode(args, argv)
	if err != nil {
		return r.canonical(exec, ErrorResult(newArgsError([]string{err.Error()})))
	}
	exec.in = in
	value, err := r.callBody(bodyCtx, e, exec)
	if err != nil {
		return r.canonical(exec, ErrorResult(err))
	}
	res, err := r.success(exec, e, value)
	if err != nil {
		return r.canonical(exec, ErrorResult(err))
	}
	if bodyCtx.Err() != nil {
		return r.canonical(exec, abortedResult())
	}
	return res
}

// callBody runs Execute, recovering a panic into an error.
func (r *Runtime) callBody(ctx context.Context, e *entry, exec *Exec) (value any, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("tool body panicked", zap.String("tool", exec.Name), zap.String("callId", exec.CallID),
				zap.Any("panic", p), zap.ByteString("stack", debug.Stack()))
			err = fmt.Errorf("tool %s panicked: %s", quote(exec.Name), panicMessage(p))
		}
	}()
	return e.def.body.execute(ctx, exec.in, exec)
}

// success renders a value and, for a top-level call, projects its presentation meta. The value's
// shape is the tool's Out type: there is nothing to check against its schema.
func (r *Runtime) success(exec *Exec, e *entry, value any) (Result, error) {
	name := e.def.Name
	in, err := r.input(exec, e)
	if err != nil {
		return Result{}, err
	}
	var renderErr error
	content, err := project(name, "render", func() []Content {
		c, err := e.def.body.render(in, value)
		renderErr = err
		return c
	})
	if err == nil && renderErr != nil {
		err = newOutputError(name, []string{renderErr.Error()})
	}
	if err != nil {
		return Result{}, err
	}
	if !validContent(content) {
		return Result{}, newOutputError(name, []string{"output.render returned non-lossless JSON"})
	}
	res := Result{Content: content, Value: value, canon: exec}
	if exec.Parent == nil && !exec.skipMeta {
		meta, err := project(name, "presentationMeta", func() any { return e.def.body.meta(in, value) })
		if err != nil {
			return Result{}, err
		}
		res.Meta = meta
	}
	return res, nil
}

// input is the call's decoded arguments: the body's, or decoded now for a value a tools/execute
// wrapper produced without running the body.
func (r *Runtime) input(exec *Exec, e *entry) (any, error) {
	if exec.in != nil {
		return exec.in, nil
	}
	var v *argcheck.Value
	if parsed, err := argcheck.Parse(exec.Args); err == nil {
		v = parsed
	}
	args, v := coerceArgs(e, exec.Args, v)
	in, err := e.def.body.decode(args, v)
	if err != nil {
		return nil, newArgsError([]string{err.Error()})
	}
	return in, nil
}

// project runs a projector, turning a panic into INVALID_TOOL_OUTPUT.
func project[T any](tool, projector string, fn func() T) (out T, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = newOutputError(tool, []string{"output." + projector + " failed: " + panicMessage(p)})
		}
	}()
	return fn(), nil
}

// notify emits tools/result, contained, with a copy of the result.
func (r *Runtime) notify(ctx context.Context, exec *Exec, res Result) {
	defer func() {
		if p := recover(); p != nil {
			r.log.Warn("tools/result dispatch panicked", zap.String("tool", exec.Name), zap.Any("panic", p))
		}
	}()
	ResultEvent.EmitContained(context.WithoutCancel(ctx), r.kc, ResultArgs{Exec: exec, res: res})
}

// fuse returns a context cancelled when either the caller's or the wrapper's
// context is, carrying the wrapper's values and deadline. A wrapper that shares the caller's Done
// channel (one that only added values, as most do) is cancelled exactly when the caller is: it is
// the fused context as it is, without a context and an AfterFunc per call.
func fuse(caller, wrapper context.Context) (context.Context, func()) {
	if wrapper == nil || wrapper == caller {
		return caller, func() {}
	}
	if wrapper.Done() == caller.Done() {
		return wrapper, func() {}
	}
	ctx, cancel := context.WithCancelCause(wrapper)
	stop := context.AfterFunc(caller, func() { cancel(context.Cause(caller)) })
	return ctx, func() {
		stop()
		cancel(nil)
	}
}

func panicMessage(p any) string {
	switch v := p.(type) {
	case error:
		return v.Error()
	case string:
		return v
	}
	return fmt.Sprint(p)
}

// coerceArgs takes arguments as models send them (argcheck.Schema.Coerce: a string that is exactly
// a JSON number for a number parameter, "true"/"false" for a boolean), before the schema check;
// args and v unchanged when nothing was coerced (or v is nil).
func coerceArgs(e *entry, args json.RawMessage, v *argcheck.Value) (json.RawMessage, *argcheck.Value) {
	if v == nil {
		return args, v
	}
	text, ok := e.params.Coerce(v)
	if !ok {
		return args, v
	}
	cv, err := argcheck.Parse(text)
	if err != nil {
		return args, v
	}
	return text, cv
}
