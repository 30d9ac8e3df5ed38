import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { BookOpenCheck } from "lucide-react";
import { useController, useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { EntityFormDialog } from "@/components/ui/entity-form-dialog";
import { digitsOnly, FormField, FormInput, FormSelect } from "@/components/ui/form";
import { Textarea } from "@/components/ui/input";
import { type MentionPerson, MentionTextarea } from "@/components/ui/mention-textarea";
import { type Annotation, type AnnotationTarget, createAnnotation, invalidateAfterAnnotation } from "@/entities/annotations";
import { type AnnotateInput, type AnnotateOutput, annotateSchema } from "@/entities/annotations/schema";
import { referenceOptionsQuery } from "@/entities/references";
import { ANNOTATION_CATEGORIES, annotationCategoryLabel } from "@/lib/annotation-types";
import { targetLabel } from "./annotation-threads";

/** Where the annotate dialog was left to pick a passage in a reference: its values then. */
export interface AnnotateDraft {
  target: AnnotationTarget;
  values: AnnotateInput;
}

/**
 * Annotating what was selected or drawn: a category, the comment (with
 * `@name` mentions) and, for a claim that needs a reference, the
 * reference, page and quoted passage that substantiate it — the passage
 * typed, or picked by selecting it in the reference's PDF beside the
 * version (`onPickPassage` hands the form's values over while the user
 * picks; the dialog comes back with them). The server locates the quote
 * in the version's text; its refusals are shown where they belong.
 */
export function AnnotateDialog({
  assetId,
  versionId,
  draft,
  people,
  image,
  onPickPassage,
  onCreated,
  onClose,
}: {
  assetId: string;
  versionId: string;
  draft: AnnotateDraft;
  people: readonly MentionPerson[];
  /** The version is an image (its one area is "the image"). */
  image: boolean;
  onPickPassage: (draft: AnnotateDraft) => void;
  onCreated: (annotation: Annotation) => void;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const form = useForm<AnnotateInput, unknown, AnnotateOutput>({ resolver: zodResolver(annotateSchema), defaultValues: draft.values });
  const category = useWatch({ control: form.control, name: "category" });
  const referenceId = useWatch({ control: form.control, name: "reference_id" });
  const references = useQuery(referenceOptionsQuery(category === "claim_needs_reference"));
  const chosen = references.data?.find((r) => r.id === referenceId);
  const { target } = draft;

  return (
    <EntityFormDialog
      form={form}
      className="max-w-lg"
      title={target.type === "text" ? "Comment on this text" : image ? "Comment on this area of the image" : `Comment on an area of page ${target.page}`}
      description={
        target.type === "text" ? (
          <span className="line-clamp-3 border-l-2 border-amber-400 pl-2 text-foreground/80 italic" data-testid="annotate-quote">
            {targetLabel(target, { max: 240 })}
          </span>
        ) : (
          "Reviewers and the author see the box and your comment on the page."
        )
      }
      submitLabel="Add comment"
      pendingLabel="Adding…"
      errorFallback="The comment could not be added."
      onClose={onClose}
      onSubmit={async (values) => {
        const created = await createAnnotation({ versionId, target, ...values });
        toast.success("Comment added");
        await invalidateAfterAnnotation(queryClient, "create", assetId, versionId);
        onCreated(created);
        onClose();
      }}
    >
      <FormField name="category" label="Category">
        <FormSelect name="category">
          {ANNOTATION_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {annotationCategoryLabel(c)}
            </option>
          ))}
        </FormSelect>
      </FormField>
      <FormField name="body" label="Comment" hint="Type @ and a name to mention a member; they are notified.">
        <BodyField people={people} />
      </FormField>
      {category === "claim_needs_reference" ? (
        <fieldset className="grid min-w-0 gap-3 rounded-lg border p-3">
          <legend className="px-1 text-sm font-medium">Substantiating reference (optional)</legend>
          <FormField name="reference_id" label="Reference">
            <FormSelect name="reference_id" disabled={references.isPending}>
              <option value="">{references.isPending ? "Loading the references…" : "No reference yet"}</option>
              {(references.data ?? []).map((r) => (
                <option key={r.id} value={r.id}>
                  {r.title}
                </option>
              ))}
            </FormSelect>
          </FormField>
          {referenceId ? (
            <>
              <FormField name="reference_page" label="Page" className="max-w-32">
                <FormInput name="reference_page" inputMode="numeric" transform={digitsOnly} />
              </FormField>
              <FormField name="reference_quote" label="Quoted passage" hint="The words of the reference that support the claim.">
                <Textarea rows={3} {...form.register("reference_quote")} />
              </FormField>
              {chosen?.file_path ? (
                <div>
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => {
                      onPickPassage({ target, values: form.getValues() });
                    }}
                  >
                    <BookOpenCheck aria-hidden="true" /> Select the passage in the reference
                  </Button>
                </div>
              ) : chosen ? (
                <p className="text-xs leading-5 text-muted-foreground">This reference has no PDF attached: type the passage.</p>
              ) : null}
            </>
          ) : null}
        </fieldset>
      ) : null}
    </EntityFormDialog>
  );
}

/** The comment, with mentions; bound to the form's `body`. */
function BodyField({ people, ...props }: { people: readonly MentionPerson[] }) {
  const {
    field: { ref, name, value, onChange, onBlur },
  } = useController<AnnotateInput, "body">({ name: "body" });
  return (
    <MentionTextarea
      {...props}
      people={people}
      rows={4}
      ref={ref}
      name={name}
      value={value}
      onChange={onChange}
      onBlur={onBlur}
    />
  );
}
