import { CircleAlert } from "lucide-react";
import { isRouteErrorResponse, useRouteError } from "react-router";
import { Button } from "@/components/ui/button";

/**
 * The router's own error screen (spec: 'Unexpected Application Error!' with
 * the status or message). Shown when a route's code fails to load, typically
 * after an upgrade replaced the hashed files; reloading fetches the new app.
 */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);

  return (
    <main className="flex min-h-dvh items-center justify-center p-4">
      <div role="alert" className="grid w-full max-w-md gap-4 rounded-xl border bg-card p-6 shadow-sm">
        <CircleAlert aria-hidden="true" className="size-6 text-destructive" />
        <h1 className="text-lg font-semibold">Unexpected Application Error!</h1>
        <p className="rounded-md bg-muted px-3 py-2 font-mono text-xs break-words text-muted-foreground">{detail}</p>
        <Button
          className="w-fit"
          onClick={() => {
            window.location.reload();
          }}
        >
          Reload Page
        </Button>
      </div>
    </main>
  );
}
