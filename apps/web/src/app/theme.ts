import { createTheme } from '@mantine/core';

/** Dark by default: studios work in dim rooms. md = 1000 px is the spec's mobile breakpoint. */
export const theme = createTheme({
  primaryColor: 'violet',
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, Segoe UI, Roboto, sans-serif',
  headings: { fontFamily: 'Inter, system-ui, -apple-system, Segoe UI, Roboto, sans-serif', fontWeight: '700' },
  breakpoints: { xs: '36em', sm: '48em', md: '62.5em', lg: '75em', xl: '93.75em' },
  defaultGradient: { from: 'violet', to: 'grape', deg: 135 },
});
