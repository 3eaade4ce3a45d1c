// Marks an interactive part of a prerendered page: the browser hydrates each island as its own small
// root and leaves the rest as the HTML it arrived as (decisions/038). Props travel as JSON in the page.
import type { ComponentType } from 'react';
import { islands, type IslandName, type IslandProps } from './island-registry';

type IslandAttributes<N extends IslandName> =
  IslandProps<N> extends undefined ? { name: N; props?: undefined } : { name: N; props: IslandProps<N> };

/** `display: contents` (the `island` class): the wrapper takes no part in the layout. */
export function Island<N extends IslandName>({ name, props }: IslandAttributes<N>) {
  const Component = islands[name] as ComponentType<NonNullable<typeof props>> | undefined;
  if (!Component) throw new Error(`The island "${name}" is not part of this page's bundle.`);
  return (
    <div className="island" data-island={name} data-props={props ? JSON.stringify(props) : undefined}>
      <Component {...(props ?? ({} as NonNullable<typeof props>))} />
    </div>
  );
}
