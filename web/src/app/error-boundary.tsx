import { TriangleAlert } from "lucide-react";
import { Component, type ErrorInfo, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { logEvent } from "@/lib/logger";

interface State {
  error: Error | null;
}

/**
 * The generic error screen (spec: 'Something went wrong', 'Try Again',
 * 'Reload Page'). Try Again re-renders the children; the error is kept in
 * the client error log.
 */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    logEvent("error", error.message, { error, context: { componentStack: info.componentStack ?? undefined } });
  }

  override componentDidUpdate(prev: { resetKey?: string }) {
    if (this.state.error && prev.resetKey !== this.props.resetKey) {
      this.setState({ error: null });
    }
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-4 py-20 text-center">
        <span className="inline-flex size-12 items-center justify-center rounded-full bg-red-50 dark:bg-red-950">
          <TriangleAlert aria-hidden="true" className="size-6 text-destructive" />
        </span>
        <h1 className="text-xl font-semibold">Something went wrong</h1>
        <p className="text-sm leading-6 text-muted-foreground">
          This screen hit an unexpected error. It has been recorded in Diagnostics.
        </p>
        <p className="w-full rounded-md bg-muted px-3 py-2 font-mono text-xs break-words text-muted-foreground">
          {this.state.error.message}
        </p>
        <div className="flex gap-2">
          <Button
            onClick={() => {
              this.setState({ error: null });
            }}
          >
            Try Again
          </Button>
          <Button
            variant="outline"
            onClick={() => {
              window.location.reload();
            }}
          >
            Reload Page
          </Button>
        </div>
      </div>
    );
  }
}
