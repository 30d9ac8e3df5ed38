import { BookOpenCheck, type LucideIcon } from "lucide-react";
import { Link } from "react-router";
import { buttonVariants } from "@/components/ui/button-variants";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { useDocumentTitle } from "@/lib/use-document-title";

interface Area {
  title: string;
  description: string;
  icon: LucideIcon;
  /** What the area will hold, as people will use it. */
  capabilities: string[];
}

/**
 * The screen of an area whose workflow is not in this release yet. It says
 * plainly what the area is for and what is available today instead of
 * pretending to have data.
 */
function AreaScreen({ area, note }: { area: Area; note?: string }) {
  useDocumentTitle(area.title);
  return (
    <div className="grid gap-6">
      <PageHeader title={area.title} description={area.description} />
      <Card>
        <CardHeader className="flex-row items-start gap-4">
          <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10">
            <area.icon aria-hidden="true" className="size-5 text-primary" />
          </span>
          <div className="grid gap-1">
            <CardTitle>Not available in this release</CardTitle>
            <CardDescription>
              {note ?? "This area is part of Fairbalance's roadmap and is not enabled on this instance yet."} When it arrives it
              will let your team:
            </CardDescription>
          </div>
        </CardHeader>
        <CardContent className="grid gap-4">
          <ul className="grid gap-2 text-sm leading-6 sm:grid-cols-2">
            {area.capabilities.map((c) => (
              <li key={c} className="flex gap-2">
                <span aria-hidden="true" className="mt-2.5 size-1.5 shrink-0 rounded-full bg-primary" />
                {c}
              </li>
            ))}
          </ul>
          <div className="flex flex-wrap gap-2">
            <Link to="/pilot-checklist" className={buttonVariants({ variant: "outline", size: "sm" })}>
              Prepare your pilot
            </Link>
            <Link to="/users" className={buttonVariants({ variant: "ghost", size: "sm" })}>
              Invite your reviewers
            </Link>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}

const GUIDELINES: Area = {
  title: "Guidelines",
  description: "The rules your content is pre-screened against.",
  icon: BookOpenCheck,
  capabilities: [
    "Switch built-in compliance checks on and off",
    "Add your own phrase lists and patterns with guidance",
    "Try a rule on sample text before saving it",
    "Keep guideline documents next to the rules",
  ],
};

export function GuidelinesPage() {
  return <AreaScreen area={GUIDELINES} />;
}
