import { BookOpen, CheckCircle2, Circle, CircleDashed, RefreshCw } from "lucide-react";
import { Link } from "react-router";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { buttonVariants } from "@/components/ui/button-variants";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Progress } from "@/components/ui/progress";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { useProfile } from "@/entities/profile";
import { errorMessage } from "@/lib/errors";
import { nextPilotStep, pilotProgress, pilotStepDoneBy, pilotStepLink, pilotStepUnavailable, usePilotStatus, type PilotStep } from "@/lib/pilot-status";
import { useDocumentTitle } from "@/lib/use-document-title";
import { cn } from "@/lib/utils";

/**
 * The pilot checklist (/pilot-checklist): every step ticked by the server
 * from the organization's real data (rpc pilot_status), with what it found,
 * the step's status and — for those whose role can do it — a link to where
 * it is done; everyone else reads who does it.
 */
export function PilotChecklistPage() {
  useDocumentTitle("Pilot checklist");
  const profile = useProfile();
  const pilot = usePilotStatus(Boolean(profile.data?.org_id));
  const status = pilot.data;
  const progress = status ? pilotProgress(status) : 0;
  const next = status ? nextPilotStep(status) : undefined;

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Pilot checklist"
        description="What a pilot of Fairbalance needs, checked against your workspace each time you open this page."
        actions={
          <>
            <Button variant="outline" size="sm" onClick={() => void pilot.refetch()} disabled={pilot.isFetching}>
              {pilot.isFetching ? <Spinner size="sm" label={null} /> : <RefreshCw aria-hidden="true" />}
              Check again
            </Button>
            <Link to="/pilot-runbook" className={buttonVariants({ variant: "outline", size: "sm" })}>
              <BookOpen aria-hidden="true" />
              Operator runbook
            </Link>
          </>
        }
      />

      {pilot.isError ? (
        <Alert variant="destructive">
          <RefreshCw />
          <AlertTitle>Could not load the pilot checklist</AlertTitle>
          <AlertDescription>{errorMessage(pilot.error, "Please try again.")}</AlertDescription>
        </Alert>
      ) : null}

      <Card>
        <CardHeader className="gap-3">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <CardTitle>Progress</CardTitle>
            {status ? (
              <p className="text-sm text-muted-foreground" data-testid="pilot-progress">
                <span className="font-medium text-foreground">
                  {status.done_count} of {status.total}
                </span>{" "}
                steps done · {progress}%
              </p>
            ) : (
              <Skeleton className="h-4 w-36" />
            )}
          </div>
          <Progress value={progress} aria-label="Pilot checklist progress" />
          <CardDescription>
            {status
              ? next
                ? <>Next: <span className="font-medium text-foreground">{next.title}</span>.</>
                : "Every step available in this release is done. The remaining steps unlock as Fairbalance gains those capabilities."
              : "Checking your workspace…"}
          </CardDescription>
        </CardHeader>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Steps</CardTitle>
          <CardDescription>Ticked from real data: nothing here can be checked off by hand.</CardDescription>
        </CardHeader>
        <CardContent>
          {!status ? (
            <div className="grid gap-4" aria-busy="true">
              {[0, 1, 2, 3, 4].map((i) => (
                <div key={i} className="flex gap-3">
                  <Skeleton className="size-5 rounded-full" />
                  <div className="grid flex-1 gap-1.5">
                    <Skeleton className="h-4 w-2/3" />
                    <Skeleton className="h-3 w-1/2" />
                  </div>
                </div>
              ))}
            </div>
          ) : (
            <ol className="divide-y" aria-label="Pilot steps" data-testid="pilot-steps">
              {status.steps.map((step, i) => (
                <StepItem key={step.key} step={step} n={i + 1} isNext={step.key === next?.key} role={profile.data?.role} />
              ))}
            </ol>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

function StepItem({ step, n, isNext, role }: { step: PilotStep; n: number; isNext: boolean; role: string | null | undefined }) {
  const unavailable = pilotStepUnavailable(step);
  const link = pilotStepLink(step.key, role);
  const doneBy = !link && !unavailable && !step.done && role ? pilotStepDoneBy(step.key) : undefined;
  const Icon = step.done ? CheckCircle2 : unavailable ? CircleDashed : Circle;
  const state = step.done ? "Done" : unavailable ? "Coming later" : "To do";
  return (
    <li
      className={cn("flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-start sm:justify-between")}
      data-step={step.key}
      data-done={step.done ? "true" : "false"}
    >
      <div className="flex min-w-0 gap-3">
        <Icon
          aria-hidden="true"
          className={cn(
            "mt-0.5 size-5 shrink-0",
            step.done ? "text-success" : unavailable ? "text-muted-foreground/60" : isNext ? "text-primary" : "text-muted-foreground",
          )}
        />
        <div className="grid min-w-0 gap-1">
          <p className={cn("leading-6 font-medium", unavailable && "text-muted-foreground")}>
            <span className="sr-only">Step {n}: </span>
            {step.title}
          </p>
          {step.detail ? <p className="text-sm leading-6 text-muted-foreground wrap-anywhere">{step.detail}</p> : null}
        </div>
      </div>
      <div className="flex min-w-0 flex-wrap items-center gap-3 pl-8 sm:shrink-0 sm:pl-0">
        <Badge variant={step.done ? "green" : unavailable ? "gray" : isNext ? "amber" : "outline"}>{isNext ? "Next" : state}</Badge>
        {link && !unavailable ? (
          <Link to={link.to} className={cn(buttonVariants({ variant: isNext ? "default" : step.done ? "ghost" : "outline", size: "sm" }), "h-auto min-h-8 max-w-full whitespace-normal text-left")}>
            {link.label}
          </Link>
        ) : doneBy ? (
          <span className="text-sm text-muted-foreground" data-testid="step-done-by">
            {doneBy}
          </span>
        ) : null}
      </div>
    </li>
  );
}
