import { Check, Copy } from "lucide-react";
import { useId, useRef, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

/** A sign-up link shown once, read-only, with a copy button (selecting it by hand works too). */
export function LinkBox({ link, label = "Sign-up link" }: { link: string; label?: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);

  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      toast.success("Link copied");
      window.setTimeout(() => {
        setCopied(false);
      }, 2000);
    } catch {
      input.current?.select();
      toast.error("Copy failed", { description: "The link is selected: copy it with Ctrl+C or ⌘C." });
    }
  }

  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex gap-2">
        <Input
          ref={input}
          id={id}
          value={link}
          readOnly
          data-testid="invite-link"
          className="font-mono text-xs"
          onFocus={(event) => {
            event.currentTarget.select();
          }}
        />
        <Button variant="outline" onClick={() => void copy()} className="h-10 shrink-0">
          {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {copied ? "Copied" : "Copy"}
        </Button>
      </div>
    </div>
  );
}
