/** The early load of the member names an asset's page shows (lib/early); free of the query library. */
export const peopleEarly = {
  key: "members:people",
  path: "/rest/v1/members?select=id,full_name,email&order=full_name.asc",
};
