import type { ThemeConfig } from 'antd';

/**
 * Shade 7 of preset colours (a tag's text), under both of antd's names for it: the CSS variables the
 * components read are named after the dashed one.
 */
function presetTextColors(colors: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(colors).flatMap(([name, hex]) => [
      [`${name}7`, hex],
      [`${name}-7`, hex],
    ]),
  );
}

/**
 * The app's antd theme. Besides the brand colour it darkens the colours antd's defaults leave below
 * WCAG AA contrast (4.5:1 for text) on white or on their tinted backgrounds: secondary, description
 * and placeholder text, links, the text of success, warning and error messages and of danger buttons, the text colour
 * (shade 7) of the preset tag colours and of status tags, and description lists' labels. The e2e accessibility journey scans every page for it.
 */
export const APP_THEME: ThemeConfig = {
  token: {
    colorPrimary: '#1d5fd6',
    colorLink: '#1d5fd6',
    // A hovered default button writes its label in this colour on white (antd's own is a lighter blue, 3.9:1).
    colorPrimaryHover: '#1a54bd',
    colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
    colorTextDescription: 'rgba(0, 0, 0, 0.65)',
    colorSuccessText: '#237804',
    colorWarningText: '#ad4e00',
    colorErrorText: '#c41d1d',
    // Danger buttons (ending an attempt, confirming a flag) write their label in this colour on white.
    colorError: '#cf1322',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
    ...presetTextColors({
      green: '#237804',
      cyan: '#00676e',
      orange: '#ad4e00',
      gold: '#875400',
      red: '#a8071a',
      magenta: '#9e1068',
      volcano: '#ad2102',
    }),
  },
  components: {
    // A status tag (a job done, one cancelled) writes its label in the status colour on its tint.
    Tag: { colorSuccess: '#237804', colorWarning: '#ad4e00' },
    // Labels of a description list (a candidate's report, the grading desk) are antd's tertiary grey otherwise.
    Descriptions: { labelColor: 'rgba(0, 0, 0, 0.65)' },
  },
};
