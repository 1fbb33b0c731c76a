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
		// valueUnread counts listeners: asked last, and only for a call that may be content-only.
		contentOnly: call.SkipValue && call.SkipMeta && call.Parent == nil && r.valueUnread(),
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

	// The common case runs straight through: a stage nobody wraps costs its dispatch alone, and the
	// approval, guard and post-execute decisions are taken apart only when there is one to take.
	decision, err := PreExecute.Run(ctx, r.kc, exec, func() (Decision, error) { return Decision{Kind: Allow}, nil })
	if err != nil {
		return ErrorResult(err)
	}
	r.mu.RLock()
	guarded := len(r.guards) > 0
	r.mu.RUnlock()
	var dispatched Result
	if (decision.Kind != Allow && decision.Kind != "") || guarded {
		var final bool
		if dispatched, final = r.prepare(ctx, exec, st, decision); final {
			return dispatched
		}
	} else if ctx.Err() != nil {
		dispatched = abortedBeforeDispatchResult()
	}
	if !dispatched.IsError {
		// tools/execute around the body, and tools/execute-change inside it for a tool that is not
		// read-only. A wrapper's failure is final: it skips post-execute.
		d := &Dispatch{Exec: exec, Ctx: ctx}
		body := func() (Result, error) { return r.runBody(d, st), nil }
		dispatched, err = ExecuteStep.Run(ctx, r.kc, d, func() (Result, error) {
			if e := r.lookup(exec.Name); e == nil || e.def.Annotations.ReadOnly {
				return body()
			}
			return ChangeStep.Run(ctx, r.kc, d, body)
		})
		if err != nil {
			return ErrorResult(err)
		}
		if dispatched.canon != exec {
			dispatched = r.normalize(exec, dispatched)
		}
		if ctx.Err() != nil && !dispatched.IsError {
			dispatched = r.cancellation(st)
		}
	}
	post, err := PostExecute.Run(ctx, r.kc, PostArgs{Exec: exec, Result: cloneResult(dispatched)}, func() (PostDecision, error) {
		return PostDecision{Kind: Accept}, nil
	})
	res = dispatched
	if err != nil {
		res = ErrorResult(err)
	} else if (post.Kind != Accept && post.Kind != "") || post.ReplaceValue || post.Content != nil {
		res = r.postExecute(exec, dispatched, post)
	}
	if ctx.Err() != nil && !res.IsError {
		return r.cancellation(st)
	}
	return res
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
func (r *Runtime) runBody(d *Dispatch, st *callState) (res Result) {
	exec := d.Exec
	bodyCtx := d.Ctx
	if bodyCtx == nil || bodyCtx.Done() != st.caller.Done() { // a wrapper's own cancellation: fused
		var release func()
		bodyCtx, release = fuse(st.caller, d.Ctx)
		defer release()
	}
	if bodyCtx.Err() != nil {
		return r.canonical(exec, abortedBeforeDispatchResult())
	}
	e := r.lookup(exec.Name)
	if e == nil || !r.Exposed(exec.Header(), exec.Name) {
		return r.canonical(exec, ErrorResult(newUnknownToolError(exec.Name)))
	}
	st.bodyInvoked = true
	args, argv := exec.Args, st.argv
	violations, coerced, cv := e.params.CheckAsSent(argv)
	if len(violations) > 0 {
		return r.canonical(exec, ErrorResult(newArgsError(violations)))
	}
	if coerced != nil {
		args, argv = coerced, cv
	}
	in, err := e.def.body.decode(args, argv)
	if err != nil {
		return r.canonical(exec, ErrorResult(newArgsError([]string{err.Error()})))
	}
	exec.in = in
	// The body's panic is its failure (only the body's: the recovery stands down when it returns).
	running := true
	defer func() {
		if !running {
			return
		}
		if p := recover(); p != nil {
			r.log.Error("tool body panicked", zap.String("tool", exec.Name), zap.String("callId", exec.CallID),
				zap.Any("panic", p), zap.ByteString("stack", debug.Stack()))
			res = r.canonical(exec, ErrorResult(fmt.Errorf("tool %s panicked: %s", quote(exec.Name), panicMessage(p))))
		}
	}()
	value, err := e.def.body.execute(bodyCtx, in, exec)
	running = false
	if err != nil {
		return r.canonical(exec, ErrorResult(err))
	}
	res, err = r.success(exec, e, value)
	if err != nil {
		return r.canonical(exec, ErrorResult(err))
	}
	if bodyCtx.Err() != nil {
		return r.canonical(exec, abortedResult())
	}
	return res
}

// success renders a value and, for a top-level call, projects its presentation meta. The value's
// shape is the tool's Out type: there is nothing to check against its schema. A projector's panic
// is INVALID_TOOL_OUTPUT.
func (r *Runtime) success(exec *Exec, e *entry, value any) (res Result, err error) {
	name := e.def.Name
	in := exec.in
	if in == nil {
		if in, err = r.input(exec, e); err != nil {
			return Result{}, err
		}
	}
	projector := "render" // the projector running, "" outside them
	defer func() {
		if projector == "" {
			return
		}
		if p := recover(); p != nil {
			res, err = Result{}, newOutputError(name, []string{"output." + projector + " failed: " + panicMessage(p)})
		}
	}()
	content, err := e.def.body.render(in, value)
	projector = ""
	if err != nil {
		return Result{}, newOutputError(name, []string{err.Error()})
	}
	if !validContent(content) {
		return Result{}, newOutputError(name, []string{"output.render returned non-lossless JSON"})
	}
	res = Result{Content: content, Value: value, canon: exec}
	if exec.Parent == nil && !exec.skipMeta {
		projector = "presentationMeta"
		res.Meta = e.def.body.meta(in, value)
		projector = ""
	}
	return res, nil
}

// input decodes the call's arguments for a value a tools/execute wrapper produced without running
// the body.
func (r *Runtime) input(exec *Exec, e *entry) (any, error) {
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
